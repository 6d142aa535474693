#if canImport(Glibc)
import Glibc
#endif
import QuarryFuzzing

/// The target this process fuzzes, from `QUARRY_FUZZ_TARGET`: libFuzzer owns
/// the command line.
private let target: FuzzTarget = {
    let name = getenv("QUARRY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        report("quarry-fuzz: set QUARRY_FUZZ_TARGET to one of: \(names)")
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    do {
        try target.run(data)
    } catch {
        report("quarry-fuzz: oracle violated by the \(target.rawValue) target: \(error)")
        abort()
    }
    return 0
}

private func report(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
