import QuarryJSON
#if canImport(Glibc)
import Glibc
#endif

/// Shows `$/progress` reports on stderr: a bar with rate and ETA on a
/// terminal, plain lines (at most one a second) otherwise.
final class ProgressBar {
    private let interactive: Bool
    private let started = ProgressBar.now()
    private var lastLine = 0.0
    private var drawn = false
    private let label: String

    init(interactive: Bool, label: String = "import") {
        self.interactive = interactive
        self.label = label
    }

    func update(_ value: JSON) {
        let percentage = value["percentage"]?.doubleValue ?? 0
        let records = value["records"]?.intValue ?? 0
        let elapsed = ProgressBar.now() - started
        let rate = elapsed > 0 ? Double(records) / elapsed : 0
        let eta = percentage > 0 ? elapsed * (100 - percentage) / percentage : 0
        let numbers = "\(records) records  \(Int(rate)) rec/s  ETA \(Int(eta.rounded())) s"
        if interactive {
            let width = 30
            let filled = Int(Double(width) * percentage / 100)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            Log.standardError.writeRaw("\r\(bar) \(Int(percentage))%  \(numbers)\u{1B}[K")
            drawn = true
        } else if ProgressBar.now() - lastLine >= 1 || value["kind"]?.stringValue == "end" {
            lastLine = ProgressBar.now()
            Log.standardError.write("\(label): \(Int(percentage))%  \(numbers)")
        }
    }

    func finish() {
        if drawn { Log.standardError.writeRaw("\n") }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
