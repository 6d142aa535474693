import Foundation
import QuarryJSON
import QuarrySync
import XCTest
@testable import QuarryEngine

#if canImport(Glibc)
import Glibc
#endif

/// The size of the file at `path`, in bytes.
func fileSize(_ path: String) throws -> Int {
    try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
}

/// A fresh temporary folder per test, removed afterwards.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/quarry-engine-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, let made = mkdtemp(base) else { return "/tmp/quarry-engine-test-fallback" }
            return String(cString: made)
        }
    }

    deinit { remove() }

    /// Deletes the folder and everything in it (also done on deinit).
    func remove() { remove(path) }

    func file(_ name: String, contents: String) -> String {
        let filePath = path + "/" + name
        let bytes = Array(contents.utf8)
        if let handle = fopen(filePath, "wb") {
            _ = fwrite(bytes, 1, bytes.count, handle)
            fclose(handle)
        }
        return filePath
    }

    private func remove(_ target: String) {
        if let directory = opendir(target) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = target + "/" + name
                if Int32(entry.pointee.d_type) == Int32(DT_DIR) { remove(child) } else { unlink(child) }
            }
            closedir(directory)
        }
        rmdir(target)
    }
}

/// A test case with its own temporary folder, removed after each test
/// (XCTest keeps test case instances alive, so deinit alone is too late).
class EngineTestCase: XCTestCase {
    let directory = TemporaryDirectory()

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }
}

/// Collects the engine's log lines.
final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var sink: @Sendable (String) -> Void { { [lines] line in lines.withLock { $0.append(line) } } }
}

extension JSON {
    var nbHits: Int? { self["nbHits"]?.intValue }
}

func record(_ objectID: String, _ fields: JSONObject = [:]) -> JSONObject {
    var object: JSONObject = ["objectID": .string(objectID)]
    for (key, value) in fields { object[key] = value }
    return object
}
