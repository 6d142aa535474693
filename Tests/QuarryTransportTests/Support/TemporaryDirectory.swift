import Glibc
import QuarryTransport

/// A private directory under /tmp (short, so socket paths stay under 107 bytes), removed on deinit.
final class TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/qt-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw TransportError.system(operation: "mkdtemp", path: nil, errno: errno)
        }
        path = String(cString: made)
    }

    deinit {
        guard let directory = opendir(path) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { remove(path + "/" + name) }
        }
        closedir(directory)
        rmdir(path)
    }

    func exists(_ name: String) -> Bool {
        var info = stat()
        return lstat(path + "/" + name, &info) == 0
    }
}
