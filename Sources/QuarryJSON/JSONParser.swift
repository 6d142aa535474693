import OrderedCollections

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte-level JSON parser (RFC 8259), strict about what it accepts.
///
/// Hostile input is expected on every path: nesting is bounded by `maxDepth`
/// (so a 100,000-deep array is an error, not a stack overflow), strings must be
/// valid UTF-8, and every error names the byte offset.
public struct JSONParser {
    public static let defaultMaxDepth = 512

    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSON in
            try parse(buffer: buffer, maxDepth: maxDepth)
        }
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    public static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSON {
        var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == buffer.count else {
            throw JSONParseError(offset: parser.offset, reason: "unexpected data after the JSON value")
        }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var offset = 0
    private var scratch: [UInt8] = []
    /// The members of the objects being parsed, innermost last: an object is made once, of its exact size,
    /// when it closes, instead of growing member by member.
    private var keys: [String] = []
    private var values: [JSON] = []
    /// Each key's length in bytes when it is ASCII, else -1: ASCII keys of different lengths differ, so
    /// only the others are compared as text.
    private var keyLengths: [Int] = []
    /// The length of the string `parseString` read last, or -1 if it was not plain ASCII.
    private var asciiLength = -1

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ reason: String, at position: Int? = nil) -> JSONParseError {
        JSONParseError(offset: position ?? offset, reason: reason)
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
        guard offset < bytes.count else { throw fail("unexpected end of input, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character, expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = offset
        let count = literal.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw fail("invalid literal", at: start) }
        let literalBytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for i in 0..<count where bytes[offset + i] != literalBytes[i] {
            throw fail("invalid literal", at: start)
        }
        offset += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        offset += 1
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object([:])
        }
        let first = keys.count
        while true {
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in object")
            }
            let key = try parseString()
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                throw fail("expected ':' after object key")
            }
            offset += 1
            skipWhitespace()
            let length = asciiLength
            let value = try parseValue(depth: depth)
            keys.append(key)
            keyLengths.append(length)
            values.append(value)
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of input in object") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return .object(closeObject(from: first))
            default: throw fail("expected ',' or '}' in object")
            }
        }
    }

    /// The object of the members from `first` on, taken off the stacks. A key given twice keeps its first
    /// place and its last value, as assigning member by member would.
    private mutating func closeObject(from first: Int) -> JSONObject {
        defer {
            keys.removeSubrange(first...)
            keyLengths.removeSubrange(first...)
            values.removeSubrange(first...)
        }
        if keys.count - first <= Self.uniqueCheckLimit, !hasRepeatedKey(from: first) {
            return JSONObject(uncheckedUniqueKeys: keys[first...], values: values[first...])
        }
        var object = JSONObject(minimumCapacity: keys.count - first)
        for member in first..<keys.count { object[keys[member]] = values[member] }
        return object
    }

    /// Up to this many members, keys are checked against each other, as the dictionary itself compares them
    /// (it keeps no hash table up to 15); a larger object is assigned member by member.
    private static let uniqueCheckLimit = 15

    private func hasRepeatedKey(from first: Int) -> Bool {
        for member in first + 1..<keys.count {
            let length = keyLengths[member]
            for earlier in first..<member where length < 0 || keyLengths[earlier] < 0 || keyLengths[earlier] == length {
                if keys[earlier] == keys[member] { return true }
            }
        }
        return false
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        offset += 1
        var array: [JSON] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            guard offset < bytes.count else { throw fail("unexpected end of input in array") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; return .array(array)
            default: throw fail("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = offset
        offset += 1
        let contentStart = offset
        // Every plain byte read, or-ed together: the string is ASCII when no high bit is set.
        var ored: UInt64 = 0
        // Fast path: no escapes; eight bytes at a time while none is special, then byte by byte.
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while bytes.count - offset >= 8 {
                let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                if EscapedBytes.holdsOne(word) { break }
                ored |= word
                offset += 8
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<offset])
                offset += 1
                let isASCII = ored & EscapedBytes.highBits == 0
                asciiLength = isASCII ? slice.count : -1
                return try makeString(slice, isASCII: isASCII, at: contentStart)
            }
            ored |= UInt64(byte)
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("unescaped control character in string") }
            offset += 1
        }
        guard offset < bytes.count else { throw fail("unterminated string", at: start) }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[contentStart..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                let content = scratch
                return try content.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> String in
                    asciiLength = -1
                    return try makeString(buffer, isASCII: false, at: contentStart)
                }
            case UInt8(ascii: "\\"):
                offset += 1
                try parseEscape()
            case 0..<0x20:
                throw fail("unescaped control character in string")
            default:
                // The plain bytes up to the next escape, in one append (a record stored as a string is
                // mostly plain bytes between escaped quotes).
                let run = offset
                repeat {
                    offset += 1
                } while offset < bytes.count && bytes[offset] != UInt8(ascii: "\"") && bytes[offset] != UInt8(ascii: "\\")
                    && bytes[offset] >= 0x20
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<offset]))
            }
        }
        throw fail("unterminated string", at: start)
    }

    /// `String(validating:as:)` is generic and looked up its metadata on every call: a tenth of an
    /// import's parsing. Decoding repairs instead of failing, so bytes that are not all ASCII are
    /// valid exactly when the repair changed nothing.
    private func makeString(_ buffer: UnsafeBufferPointer<UInt8>, isASCII: Bool, at position: Int) throws(JSONParseError) -> String {
        var string = String(decoding: buffer, as: UTF8.self)
        if isASCII { return string }
        let unchanged = string.withUTF8 { decoded in
            decoded.count == buffer.count && decoded.elementsEqual(buffer)
        }
        guard unchanged else { throw fail("invalid UTF-8 in string", at: position) }
        return string
    }

    private mutating func parseEscape() throws(JSONParseError) {
        guard offset < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw fail("unpaired surrogate in \\u escape")
                }
                offset += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw fail("unpaired surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
            scratch.append(contentsOf: unicode.utf8)
        default:
            throw fail("invalid escape character", at: offset - 1)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = offset
        var isInteger = true
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("expected a digit", at: offset) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw fail("leading zero in number", at: start) }
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("expected a digit after '.'") }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            isInteger = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("expected a digit in exponent") }
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        if isInteger, let value = Self.parseInt64(text) { return .int(value) }
        // JSON's grammar has no bound on numbers: one past Double's range is ±infinity, which the writer
        // writes back as ±1e999, and which the parameter checks refuse by name (request's id intact).
        return .double(Self.parseDouble(text))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func parseInt64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = text[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        var value: Int64 = 0
        while index < text.count {
            let digit = Int64(text[index] - UInt8(ascii: "0"))
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            index += 1
        }
        return value
    }

    private static func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for i in 0..<text.count { buffer[i] = CChar(bitPattern: text[i]) }
            buffer[text.count] = 0
            guard let start = buffer.baseAddress else { return .nan }
            return strtod(start, nil)
        }
    }
}
