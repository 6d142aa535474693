/// Writes JSON straight to bytes: the hot path for replies and notifications,
/// where Foundation's encoders cost ten times more (ARCHITECTURE.md, "Measured facts").
/// Slashes are not escaped. ±infinity (a number past Double's range, as the parser
/// reads it) is written `1e999`/`-1e999`, which reads back the same; NaN becomes `null`.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public static func encode(_ value: JSON) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public static func string(_ value: JSON) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    public mutating func write(_ value: JSON) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let b): writeRaw(b ? "true" : "false")
        case .int(let i): writeInt(i)
        case .double(let d): writeDouble(d)
        case .string(let s): writeString(s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                write(member)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends bytes that are already JSON (a cached encoding of a record, say).
    public mutating func writeRaw(_ raw: some Sequence<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    public mutating func writeRaw(_ raw: StaticString) {
        raw.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func writeInt(_ value: Int64) {
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    public mutating func writeDouble(_ value: Double) {
        guard value.isFinite else {
            if value.isNaN { writeRaw("null") } else { writeRaw(value < 0 ? "-1e999" : "1e999") }
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            writeInt(Int64(value))
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    public mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
