#if canImport(Glibc)
import Glibc
#endif

/// Where an export goes: stdout, or a file written beside its final name and
/// renamed over it only when complete, so a failed export never leaves a
/// truncated file that a later import would take for the whole index.
final class ExportFile: Sendable {
    private let descriptor: Int32
    private let path: String?

    static func standardOutput() -> ExportFile { ExportFile(descriptor: 1) }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        path = nil
    }

    init(path: String) throws {
        self.path = path
        descriptor = open(path + ".partial", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError("cannot write \(path).partial: \(String(cString: strerror(errno)))") }
    }

    deinit {
        guard let path else { return }
        close(descriptor)
        unlink(path + ".partial")  // still there only if the export failed
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    poll(&ready, 1, 100)
                    continue
                }
                throw ExportError("write failed: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }

    func commit() throws {
        guard let path else { return }
        guard fsync(descriptor) == 0, rename(path + ".partial", path) == 0 else {
            throw ExportError("cannot finish \(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct ExportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
