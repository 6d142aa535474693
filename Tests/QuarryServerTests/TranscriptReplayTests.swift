import Dispatch
import Foundation
import QuarryBackend
import QuarryEngine
import QuarryJSON
import QuarryServer
import QuarryTransport
import XCTest

/// Replays every `protocol/examples/*.json` transcript against an in-process
/// server with a real engine, one recorded connection per transcript
/// connection (the format and matching rules are in protocol/examples/README.md;
/// `clients/python/tests/test_transcripts.py` replays the same files over a socket).
final class TranscriptReplayTests: XCTestCase {
    private static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/examples")

    func testEveryTranscriptReplays() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(names.isEmpty, "no transcripts in \(Self.examples.path)")
        for name in names {
            let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent(name)))
            try replay(JSONParser.parse(bytes), name: name)
        }
    }

    func testTheMatcherCanFail() {
        XCTAssertNil(TranscriptMatcher.mismatch(["a": [1, "<any>"]], ["a": [1, ["x": 2]], "b": 3]))
        XCTAssertNotNil(TranscriptMatcher.mismatch(["a": [1]], ["a": [1, 2]]))
        XCTAssertNotNil(TranscriptMatcher.mismatch(["a": 1], ["a": true]))
        XCTAssertEqual(TranscriptMatcher.mismatch(["a": ["b": 1]], ["a": [:]]), "$.a.b: missing")
    }

    private func replay(_ transcript: JSON, name: String) throws {
        let directory = NSTemporaryDirectory() + "quarry-transcript-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (file, content) in transcript["files"]?.objectValue ?? [:] {
            try Data((content.stringValue ?? "").utf8).write(to: URL(fileURLWithPath: directory + "/" + file))
        }
        let engine = try Engine(directory: directory + "/data", log: { _ in })
        defer { engine.close() }
        let sink = ConnectionRecorder()
        let server = Server(configuration: ServerConfiguration(), backend: engine, sink: sink, log: { _ in })
        var ids: [String: ConnectionID] = [:]
        for (position, connection) in (transcript["connections"]?.arrayValue ?? []).enumerated() {
            let id = ConnectionID(rawValue: UInt64(position + 1))
            ids[connection.stringValue ?? ""] = id
            server.connectionOpened(id, kind: .socket)
        }
        let steps = TranscriptMatcher.substitute(transcript["steps"] ?? [], directory: directory).arrayValue ?? []
        for (number, step) in steps.enumerated() {
            let on = step["on"]?.stringValue ?? ""
            let where_ = "\(name) step \(number + 1) on \(on)"
            guard let id = ids[on] else { return XCTFail("\(where_): unknown connection") }
            if let message = step["send"] {
                server.received(JSONWriter.encode(message), on: id)
            } else if let pattern = step["expect"] {
                guard let message = sink.next(on: id) else { return XCTFail("\(where_): nothing arrived, expected \(pattern)") }
                if let problem = TranscriptMatcher.mismatch(pattern, message) {
                    return XCTFail("\(where_): \(problem)\n  message: \(JSONWriter.string(message))")
                }
            } else if var expected = step["expectUnordered"]?.arrayValue {
                for _ in 0..<expected.count {
                    guard let message = sink.next(on: id) else { return XCTFail("\(where_): fewer messages than expected") }
                    guard let match = expected.firstIndex(where: { TranscriptMatcher.mismatch($0, message) == nil }) else {
                        return XCTFail("\(where_): \(JSONWriter.string(message)) matches none of \(expected)")
                    }
                    expected.remove(at: match)
                }
            } else if let pattern = step["skip"] {
                while let message = sink.next(on: id) {
                    if TranscriptMatcher.mismatch(pattern, message) != nil {
                        sink.putBack(message, on: id)
                        break
                    }
                }
            } else {
                return XCTFail("\(where_): unknown step \(step)")
            }
        }
        for (name, id) in ids {
            if let extra = sink.next(on: id, timeout: 0.3) {
                XCTFail("\(name) got a message the transcript does not show: \(JSONWriter.string(extra))")
            }
        }
    }
}

/// Pattern matching as protocol/examples/README.md defines it.
enum TranscriptMatcher {
    static func mismatch(_ pattern: JSON, _ value: JSON, path: String = "$") -> String? {
        if pattern == "<any>" { return nil }
        switch pattern {
        case .object(let members):
            guard case .object(let actual) = value else { return "\(path): expected an object, got \(JSONWriter.string(value))" }
            for (key, item) in members {
                guard let found = actual[key] else { return "\(path).\(key): missing" }
                if let problem = mismatch(item, found, path: "\(path).\(key)") { return problem }
            }
            return nil
        case .array(let elements):
            guard case .array(let actual) = value, actual.count == elements.count else {
                return "\(path): expected \(elements.count) elements, got \(JSONWriter.string(value))"
            }
            for (index, (item, element)) in zip(elements, actual).enumerated() {
                if let problem = mismatch(item, element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        default:
            return pattern == value ? nil : "\(path): expected \(JSONWriter.string(pattern)), got \(JSONWriter.string(value))"
        }
    }

    static func substitute(_ value: JSON, directory: String) -> JSON {
        switch value {
        case .string(let text): .string(text.replacingOccurrences(of: "${DIR}", with: directory))
        case .array(let elements): .array(elements.map { substitute($0, directory: directory) })
        case .object(let members): .object(members.mapValues { substitute($0, directory: directory) })
        default: value
        }
    }
}

/// Keeps what the server sends, per connection, for reading in order.
final class ConnectionRecorder: MessageSink, @unchecked Sendable {
    private let lock = NSCondition()
    private var queues: [ConnectionID: [JSON]] = [:]

    func send(_ payload: [UInt8], to connection: ConnectionID, coalescingKey: String?) {
        lock.lock()
        queues[connection, default: []].append((try? JSONParser.parse(payload)) ?? "<unparsable>")
        lock.broadcast()
        lock.unlock()
    }

    func close(_ connection: ConnectionID) {}
    func stop() {}

    /// The next message on `connection`, or nil after `timeout` seconds.
    func next(on connection: ConnectionID, timeout: TimeInterval = 10) -> JSON? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while queues[connection, default: []].isEmpty {
            if !lock.wait(until: deadline) { return nil }
        }
        return queues[connection]?.removeFirst()
    }

    func putBack(_ message: JSON, on connection: ConnectionID) {
        lock.lock()
        queues[connection, default: []].insert(message, at: 0)
        lock.unlock()
    }
}
