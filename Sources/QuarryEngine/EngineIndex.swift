import Dispatch
import QuarrySearchContract
import QuarrySync

/// One open store and its views: the primary index and its replicas (each a
/// search snapshot), the readers that fetch hit records, and the saving of
/// the derived files.
///
/// Writes take `store`'s lock for the whole transaction, so writes to one
/// index run one at a time. Searches take only `current`'s lock, and only to
/// copy the views, so they never wait for a write.
final class EngineIndex: Sendable {
    let name: String
    let folder: EngineIndexFolder
    let readers: RecordReaderPool
    /// `nil` once the index is closed or deleted.
    private let store: Locked<IndexStore?>
    private let current: Locked<EngineIndexViews>
    private let persisted: Locked<PersistState>

    private struct PersistState {
        /// The generation of each view's file on disk; "" is the primary.
        var generations: [String: UInt64] = [:]
        var scheduled = false
        var closed = false
        /// How long the last save took; big indices under steady writes are
        /// saved less often so saving never takes more than a third of a core.
        var lastSaveSeconds = 0.0
        /// A record compaction is queued or running (see `compactRecords`).
        var compactingRecords = false
        /// A write asked for the merges off the write path and they have not started yet (see `mergeSoon`).
        var mergeQueued = false
        /// The writes the files do not hold yet, for `EngineSavePolicy`: when the first and the last
        /// came, and how many documents they wrote (`Int.max` after a rebuild: every one).
        var firstUnsavedWrite: ContinuousClock.Instant?
        var lastWrite: ContinuousClock.Instant?
        var unsavedDocuments = 0
        /// The primary's documents at the last save.
        var savedDocuments = 0
        /// Saves that wrote at least one file (for tests).
        var saves = 0

        mutating func noteWrite(documents: Int?, at now: ContinuousClock.Instant) {
            if firstUnsavedWrite == nil { firstUnsavedWrite = now }
            lastWrite = now
            if let documents, documents <= Int.max - unsavedDocuments {
                unsavedDocuments += documents
            } else {
                unsavedDocuments = Int.max
            }
        }

        func unsaved(at now: ContinuousClock.Instant) -> EngineSavePolicy.Unsaved {
            func seconds(since instant: ContinuousClock.Instant?) -> Double {
                guard let instant else { return .infinity }
                let elapsed = now - instant
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            }
            return EngineSavePolicy.Unsaved(
                sinceLastWrite: seconds(since: lastWrite), sinceFirstWrite: seconds(since: firstUnsavedWrite),
                documents: unsavedDocuments, savedDocuments: savedDocuments, lastSaveSeconds: lastSaveSeconds)
        }
    }

    /// Opens (or creates) the index in `folder`, loading each view's derived
    /// file when it matches the store and rebuilding it otherwise.
    init(name: String, folder: EngineIndexFolder, log: @Sendable (String) -> Void) throws(BackendError) {
        let store = try IndexStore(path: folder.databasePath, name: name, now: WallTime.nowMS())
        var state = PersistState()
        let primary = try EngineDerivedFile.load(
            store: store, settings: store.settings, path: folder.derivedPath(replica: nil),
            label: "index '\(store.name)'", log: log)
        if primary.fromFile { state.generations[""] = store.generation }
        var views = EngineIndexViews(primary: primary.snapshot, replicas: [:])
        for replica in store.settings.replicas.map(\.name) {
            let loaded = try EngineDerivedFile.load(
                store: store, settings: store.effectiveSettings(replica: replica), path: folder.derivedPath(replica: replica),
                label: "replica '\(replica)' of '\(store.name)'", log: log)
            views.replicas[replica] = loaded.snapshot
            if loaded.fromFile { state.generations[replica] = store.generation }
        }
        self.name = store.name
        self.folder = folder
        self.store = Locked(store)
        current = Locked(views)
        persisted = Locked(state)
        readers = RecordReaderPool(path: folder.databasePath, indexName: store.name)
    }

    var views: EngineIndexViews { current.withLock { $0 } }

    /// Runs `body` on the store between two writes; nil when the index was closed or deleted.
    func reading<T>(_ body: (IndexStore) throws(BackendError) -> T) throws(BackendError) -> T? {
        try store.withLock { (store) throws(BackendError) -> T? in
            guard let store else { return nil }
            return try body(store)
        }
    }

    /// Runs `body` in one store transaction; `body` returns its result and
    /// what it changed. Every view is brought up to date inside the
    /// transaction and swapped in right after the commit, except views still
    /// `.building` on threads of their own: their input ends before the commit
    /// and they are joined after it (their builds cannot fail), so that
    /// committing (the log's sync) and finishing the builds overlap: a batch of
    /// 1,000 records streamed 3–4% faster (Benchmarks/RESULTS.md, "The commit
    /// beside the build's end, and other allocators"). Meanwhile a search on
    /// another connection may read the views before the write while
    /// `getObjects` reads the committed records: no reply has promised them
    /// yet (protocol/README.md, "Ordering guarantees" 5), and the write's own
    /// connection waits for the reply.
    /// Returns nil when the index was closed or deleted meanwhile.
    func write<T>(
        _ body: (IndexStore, EngineIndexViews) throws(BackendError) -> (T, EngineIndexChange)
    ) throws(BackendError) -> (result: T, generation: UInt64)? {
        try store.withLock { (store) throws(BackendError) -> (result: T, generation: UInt64)? in
            guard let store else { return nil }
            let before = views
            let clock = ContinuousClock()
            let start = clock.now
            var after = before
            var building: EngineImportBuild.Ending?
            var written: Int?
            let result: T
            do throws(BackendError) {
                result = try store.write(now: WallTime.nowMS()) { () throws(BackendError) -> T in
                    let (result, change) = try body(store, before)
                    written = change.documentsWritten
                    if case .building(let build) = change, let ending = build.endInput() {
                        building = ending
                    } else {
                        after = try before.applying(change, store: store, buildMS: 0)
                    }
                    return result
                }
            } catch {
                building?.abandon()
                throw error
            }
            if let building { after = EngineIndexViews(built: building.join(), store: store) }
            let elapsed = clock.now - start
            let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
            after.primary.buildMS = ms
            current.withLock { $0 = after }
            settleWhenDone(after)
            persisted.withLock { $0.noteWrite(documents: written, at: clock.now) }
            // A large write's build (its tokens, terms and facet values) and the store's scratch were freed in
            // the arenas of the threads that made them, which keep them resident, and the next batch's threads
            // may well take other arenas: handed back, 100k records by batches of 5,000 peaked at 86–97 MiB
            // instead of 96–114 (Benchmarks/RESULTS.md, "A large write hands back what it freed"). Smaller
            // batches share one (`LargeBlocks.WriteSchedule`).
            if let written, written >= Engine.batchBuildThreshold { LargeBlocks.handBackFreed(afterWriting: written) }
            return (result, store.generation)
        }
    }

    // MARK: Derived files

    /// Merges the segments that writes piled up, off the write path (on the persistence queue, after each
    /// write and each put-off save; the merge policy is in ARCHITECTURE.md, "Segments and merges"): tiered
    /// merges of a few segments at a time while writes stream (`SearchIndex.backgroundMerge`), and all of a
    /// view's segments into one when `needsCompaction` and, with `quietOnly`, no write came since its file
    /// was last saved (a full merge under a stream of batches would fold segments the writes are still
    /// folding, and be dropped).
    /// Searches read the old segments until the merged one is swapped in, under the write lock so that
    /// no write in flight swaps its view over it; the merge is carried over to the writes made meanwhile
    /// (`SearchIndex.rebasing`). The view's file is then marked behind, so that the next save writes the
    /// merged segment and serves it mapped from its file like an imported one. Returns true when a merge
    /// is still due.
    @discardableResult
    func compactIfNeeded(quietOnly: Bool = false) -> Bool {
        let (pending, largest) = mergeWhatIsDue(quietOnly: quietOnly)
        // Only now: until `mergeWhatIsDue` returns, its snapshots of the views hold the merges' inputs.
        handBack(merged: largest)
        return pending
    }

    /// The merges `compactIfNeeded` runs: whether one is still due, and the size of the largest made.
    private func mergeWhatIsDue(quietOnly: Bool) -> (pending: Bool, largest: Int) {
        let keys = self.views.keys
        let saved = persisted.withLock { $0.generations }
        var pending = false, largest = 0
        for key in keys {
            for _ in 0..<8 {
                guard let snapshot = self.views.view(key) else { break }
                if snapshot.index.pending != nil {
                    settle(snapshot.index, key: key)
                    continue
                }
                let index = snapshot.index
                let range: Range<Int>
                let quiet = !quietOnly || saved[key ?? ""] == snapshot.generation
                if index.needsCompaction && quiet {
                    range = 0..<index.segments.count
                } else if let tiered = index.backgroundMerge() {
                    range = tiered
                } else {
                    pending = pending || index.needsCompaction
                    break
                }
                let merge = index.merging(range, spillDirectory: folder.path)
                // Under the write lock no write can replace the view, so the carrying over runs outside
                // `current`'s lock, which searches take.
                let swapped = store.withLock { _ -> UInt64? in
                    guard let view = self.views.view(key), let rebased = view.index.rebasing(merge) else { return nil }
                    current.withLock { $0.replaceIndex(of: key, with: rebased) }
                    return view.generation
                }
                guard let generation = swapped else {
                    pending = true
                    break
                }
                // The file pages searches read in the inputs while the merge ran (it let go of its own reads).
                for segment in index.segments[range] { segment.releaseResidentPages() }
                largest = max(largest, merge.segment.count)
                persisted.withLock { state in
                    if state.generations[key ?? ""] == generation { state.generations[key ?? ""] = nil }
                }
                if range.count == index.segments.count { break }
                pending = true
            }
        }
        return (pending, largest)
    }

    /// Has each merge the write left running in `views` swap itself in as soon as it is done, rather
    /// than when the next write ends: meanwhile searches read its parts (`PendingMerge`).
    private func settleWhenDone(_ views: EngineIndexViews) {
        for key in views.keys {
            guard let index = views.view(key)?.index, let pending = index.pending else { continue }
            pending.whenDone { [weak self] in self?.settle(index, key: key) }
        }
    }

    /// Swaps in the merge a write left running in `index` once it is done, unless a write replaced the
    /// view meanwhile (`PendingMerge`). Not under the write lock: a write in flight derives its view
    /// from `index` too, settling the same merge, so whichever swap comes last holds it.
    private func settle(_ index: SearchIndex, key: String?) {
        let settled = index.settled()
        current.withLock { views in
            guard views.view(key)?.index === index else { return }
            views.replaceIndex(of: key, with: settled)
        }
    }

    /// After merges of 8,000 documents or more (all but the first tier's), the blocks glibc keeps in its
    /// arenas once freed: the inputs' structures and the merges' smaller scratch (the large ones it hands
    /// back itself: `LargeBlocks`). Trimming after these merges costs a stream of batches nothing measurable
    /// (Benchmarks/RESULTS.md, "Large blocks out of glibc's arenas"); while the inputs were still held, the
    /// final merge of 1M records left about 170 MiB of them resident until its save ended (same file, "The
    /// final merge").
    private func handBack(merged: Int) {
        let policy = SearchIndex.MergePolicy.standard
        if merged >= policy.floor * policy.mergeFactor { LargeBlocks.handBackFreed() }
    }

    /// Serves the view just saved to `path` from it, read back: the whole view when
    /// nothing replaced it meanwhile, else the saved segments the newest view still
    /// holds (`SearchIndex.adopting`), so that a stream of batches does not keep
    /// the index on the heap until it stops. Writes and merges build segments on
    /// the heap; read from the file, their large arrays live in the page cache and
    /// only what searches touch is resident (see `FileMapping`), and the file the
    /// old segments still mapped is freed with them. The arrays the reader would
    /// copy are shared with the saved view instead (`ArrayShelf`).
    private func serveFromFile(_ key: String?, _ snapshot: EngineIndexSnapshot, path: String, shelf: ArrayShelf,
                               log: @Sendable (String) -> Void) {
        let reopened: SearchIndex
        do {
            reopened = try SearchIndex.read(from: path, settings: snapshot.settings, shelf: shelf).index
        } catch {
            log("index '\(name)': a search index file just saved could not be read back (\(error)); serving the one in memory")
            return
        }
        // Under the write lock, as a merge is swapped in: no write in flight swaps its view over this one.
        store.withLock { _ in
            current.withLock { views in
                guard let view = views.view(key) else { return }
                if view.generation == snapshot.generation, view.index === snapshot.index {
                    views.replaceIndex(of: key, with: reopened)
                } else if let adopted = view.index.adopting(reopened, savedFrom: snapshot.index) {
                    views.replaceIndex(of: key, with: adopted)
                }
            }
        }
    }

    /// Runs the merges off the write path that are due (`compactIfNeeded`), next on `queue`: each write
    /// asks, so that the segments a stream of batches appends merge beside the writes that follow, on
    /// whatever CPU the writer leaves, rather than inside the writes (`SearchIndex.MergePolicy.writeStall`).
    /// One request waits at a time; a write made while the merges run queues the next.
    func mergeSoon(on queue: EnginePersistQueue) {
        let ask = persisted.withLock { state in
            guard !state.closed, !state.mergeQueued else { return false }
            state.mergeQueued = true
            return true
        }
        guard ask else { return }
        queue.async { [weak self] in
            guard let self else { return }
            let open = persisted.withLock { state in
                state.mergeQueued = false
                return !state.closed
            }
            if open { compactIfNeeded(quietOnly: true) }
        }
    }

    /// Saves the views after `delay` seconds (or twice the last save's time)
    /// on `queue`, once per burst of writes. While writes keep coming, the
    /// save is put off (`EngineSavePolicy`) and only the tiered merges run,
    /// every `delay` seconds, until the writes pause or a bound is crossed.
    func schedulePersist(on queue: EnginePersistQueue, delay: Double, log: @escaping @Sendable (String) -> Void) {
        let wait: Double? = persisted.withLock { state in
            guard !state.scheduled && !state.closed else { return nil }
            state.scheduled = true
            return max(delay, 2 * state.lastSaveSeconds)
        }
        guard let wait else { return }
        armSave(on: queue, after: wait, delay: delay, log: log)
    }

    private func armSave(on queue: EnginePersistQueue, after wait: Double, delay: Double, log: @escaping @Sendable (String) -> Void) {
        queue.asyncAfter(wait) { [weak self] in
            guard let self else { return }
            let policy = EngineSavePolicy(quietSeconds: delay)
            let putOff = persisted.withLock { state in
                !state.closed && !policy.shouldSave(state.unsaved(at: ContinuousClock.now))
            }
            if putOff {
                // The merges bound the segments a stream piles up, so they go on; the file waits.
                compactIfNeeded(quietOnly: true)
                armSave(on: queue, after: delay, delay: delay, log: log)
                return
            }
            // A merge put off because writes kept coming runs at the next save after they stop.
            if persistNow(log: log) { schedulePersist(on: queue, delay: delay, log: log) }
            queue.asyncUnlowered { [weak self] in self?.compactRecords(on: queue, log: log) }
        }
    }

    /// Saves that wrote at least one view's file since the index was opened.
    var saves: Int { persisted.withLock { $0.saves } }

    /// Rewrites the records stored as text compressed (`IndexStore.compactRecords`), one bounded
    /// transaction per turn of `queue` under the write lock, so a write or a close waits for one
    /// step at most and searches never wait. Started after each save; a crash resumes it on open.
    func compactRecords(on queue: EnginePersistQueue, log: @escaping @Sendable (String) -> Void, continuing: Bool = false) {
        let start = persisted.withLock { state in
            guard !state.closed, continuing || !state.compactingRecords else { return false }
            state.compactingRecords = true
            return true
        }
        guard start else { return }
        var more = false
        do {
            more = try store.withLock { (store) throws(BackendError) -> Bool in try store?.compactRecords() ?? false }
        } catch {
            log("index '\(name)': record compaction stopped (\(error)); it resumes on next open")
        }
        guard more else {
            persisted.withLock { $0.compactingRecords = false }
            return
        }
        queue.asyncUnlowered { [weak self] in self?.compactRecords(on: queue, log: log, continuing: true) }
    }

    /// Merges the views writes left in many segments (see `compactIfNeeded`; when `closing`, whatever
    /// the last write, so that the next open serves one mapped segment without merging beside the first
    /// searches), writes each view's file that is behind, then (with `serveFromFile`) serves each saved
    /// view from its file. Runs on the engine's persistence queue only, so two writers never race on a
    /// file. Returns true when a merge was put off because writes kept coming (and every save succeeded).
    @discardableResult
    func persistNow(serveFromFile: Bool = true, closing: Bool = false, log: @Sendable (String) -> Void) -> Bool {
        var mergeDue = compactIfNeeded(quietOnly: !closing)
        // `due` is the only reference this function keeps to the views, so dropping it frees them.
        var due: [(key: String, snapshot: EngineIndexSnapshot)] = {
            let views = self.views
            return [("", views.primary)] + views.replicas.map { ($0.key, $0.value) }
        }()
        due = persisted.withLock { state in
            state.scheduled = false
            guard !state.closed else { return [] }
            let behind = due.filter { state.generations[$0.key] != $0.snapshot.generation }
            state.firstUnsavedWrite = nil
            state.unsavedDocuments = 0
            state.savedDocuments = due.first?.snapshot.index.documentCount ?? 0
            return behind
        }
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if !due.isEmpty { persisted.withLock { $0.lastSaveSeconds = seconds } }
        }
        var wrote = false
        defer { if wrote { persisted.withLock { $0.saves += 1 } } }
        for (key, snapshot) in due {
            do {
                let path = folder.derivedPath(replica: key.isEmpty ? nil : key)
                let shelf = serveFromFile ? ArrayShelf() : nil
                try EngineDerivedFile.write(snapshot, to: path, shelf: shelf)
                persisted.withLock { $0.generations[key] = snapshot.generation }
                wrote = true
                if let shelf { self.serveFromFile(key.isEmpty ? nil : key, snapshot, path: path, shelf: shelf, log: log) }
            } catch {
                log("index '\(name)': could not save a search index file (\(error)); it will be rebuilt on next open")
                mergeDue = false  // a merge put off waits for the next write rather than retry saves that fail
            }
        }
        // The views just replaced were freed in blocks glibc keeps for reuse (hundreds of MiB after a
        // large import): hand them back once their last reference here is gone.
        if serveFromFile && !due.isEmpty {
            due.removeAll()
            LargeBlocks.handBackFreed()
        }
        return mergeDue
    }

    /// Stops persistence and closes every connection. Call on the persistence
    /// queue (after a final `persistNow` when the index is kept).
    func close() {
        persisted.withLock { $0.closed = true }
        store.withLock { store in
            store?.close()
            store = nil
        }
        readers.close()
    }

    /// Closes the store if its generation is still `generation` (0: no write
    /// ever committed), checked under the write lock so a write in flight
    /// decides first.
    func close(ifGenerationIs generation: UInt64) -> Bool {
        let unwritten = store.withLock { store -> Bool in
            guard let open = store, open.generation == generation else { return false }
            open.close()
            store = nil
            return true
        }
        if unwritten {
            persisted.withLock { $0.closed = true }
            readers.close()
        }
        return unwritten
    }

    /// Facts for listIndices: the primary, then its replicas (never waits for a write).
    func summaries(memory: Bool) -> [IndexSummary] {
        let views = self.views
        let dataSize = folder.size(of: folder.databasePath) + folder.size(of: folder.databasePath + "-wal")
        func summary(_ name: String, _ snapshot: EngineIndexSnapshot, replica: String?) -> IndexSummary {
            IndexSummary(
                name: name, entries: snapshot.index.documentCount, dataSize: replica == nil ? dataSize : 0,
                fileSize: (replica == nil ? dataSize : 0) + folder.size(of: folder.derivedPath(replica: replica)),
                createdAt: snapshot.createdAt, updatedAt: snapshot.updatedAt, lastBuildTimeS: snapshot.buildMS / 1000,
                replicas: replica == nil ? snapshot.settings.replicas.map(\.name) : [], primary: replica == nil ? nil : self.name,
                memory: memory ? snapshot.index.memory() : nil)
        }
        return [summary(name, views.primary, replica: nil)]
            + views.replicas.map { summary($0.key, $0.value, replica: $0.key) }
    }
}
