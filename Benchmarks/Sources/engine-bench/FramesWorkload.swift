import Foundation
import QuarryTransport

/// `engine-bench frames CATALOGUE BATCH [rounds]`: the cost of taking `saveObjects` requests off a connection,
/// in process.
///
/// Each request (`SaveRequests`) is framed as a client sends it, in each framing, and fed to the decoder a
/// connection uses in the 64 KiB reads the event loop makes, one request after another as a client that
/// waits for each reply sends them. The decoder runs on the event loop's thread, which every connection
/// shares, before the request's parse can start. Reports the median round's µs a request and MB/s.
func runFrames(_ arguments: [String]) throws {
    let work = try SaveRequests(arguments: arguments, command: "frames")
    let read = 64 * 1024
    for framing in [Framing.newlineDelimited, .contentLength] {
        let framed = work.requests.map { FrameEncoder.encode($0, as: framing) }
        let clock = ContinuousClock()
        var times: [Double] = []
        var delivered = 0
        for _ in 0..<work.rounds {
            var decoder = FrameDecoder()
            times.append(seconds(clock.measure {
                for request in framed {
                    request.withUnsafeBytes { all in
                        var offset = 0
                        while offset < all.count {
                            let end = min(all.count, offset + read)
                            for case .frame(let payload) in decoder.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end])) {
                                delivered += payload.count
                            }
                            offset = end
                        }
                    }
                }
            }))
        }
        guard delivered == work.rounds * work.bytes else {
            print("frames: \(framing) delivered \(delivered) bytes, expected \(work.rounds * work.bytes)")
            exit(1)
        }
        times.sort()
        let median = times[times.count / 2]
        print(String(format: "frames, %@: median %.0f us a request (%.0f MB/s)",
                     "\(framing)", median * 1e6 / Double(work.requests.count), Double(work.bytes) / median / 1e6))
    }
}
