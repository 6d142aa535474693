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
        // A native string's bytes are read where they are; only a bridged one is copied first.
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
            var string = string
            string.withUTF8 { writeEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        let base = UnsafeRawPointer(utf8.baseAddress)
        var runStart = 0, index = 0
        while index < count {
            // Eight bytes at a time while none needs escaping (most of a record is long plain text); the
            // last eight of a long string at once too, overlapping what was already read.
            if let base, count >= 8 {
                let at = min(index, count - 8)
                if !EscapedBytes.holdsOne(base.loadUnaligned(fromByteOffset: at, as: UInt64.self)) {
                    index = at + 8
                    continue
                }
            }
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            index += 1
            runStart = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                writeRaw("u00")
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }
}
