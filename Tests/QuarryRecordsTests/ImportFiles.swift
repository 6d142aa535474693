import Foundation

/// A fresh temporary folder of import files per test, removed afterwards.
final class ImportFiles {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-records-test-\(UUID().uuidString)").path
        // A folder that cannot be made fails the test at its first file.
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of a new file `name` holding `contents`.
    func file(_ name: String, contents: String) -> String {
        let filePath = path + "/" + name
        _ = FileManager.default.createFile(atPath: filePath, contents: Data(contents.utf8))
        return filePath
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
