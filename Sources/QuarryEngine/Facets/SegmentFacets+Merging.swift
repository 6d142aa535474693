extension SegmentFacets {
    /// The facets of a merge's documents, laid out in merged order straight from its parts' columns:
    /// `sources[ordinal]` is the part and the part's ordinal of merged document `ordinal`.
    ///
    /// Collecting them in the parts' order first (`SegmentFacetsBuilder`) and laying them out again held
    /// every value twice: 126 MiB above the index in the merge of 1M records (Benchmarks/RESULTS.md). Value
    /// ids are interned as that builder interns them (parts in order, live documents ascending), so the
    /// columns are the same.
    static func merging(_ parts: [SegmentFacets], counts: [Int], dead: [Bitset], sources: [SegmentMerge.Origin],
                        layout: FacetLayout) -> SegmentFacets {
        var result = SegmentFacets()
        // Each column's parts let go of what was read of them in place as soon as it is merged: held until
        // the end, the parts' facets and numbers were 41 MiB of file pages in the merge of 1M records
        // (Benchmarks/RESULTS.md, "The final merge").
        for name in layout.attributes {
            let columns = parts.map { $0.column(name) }
            result.columns.append(mergedColumn(name, columns, counts: counts, dead: dead, sources: sources))
            for column in columns { column?.releaseResidentPages() }
        }
        var paths: [String] = []
        for part in parts {
            for column in part.numeric where !paths.contains(column.path) && paths.count < FacetLayout.maxNumericPaths {
                paths.append(column.path)
            }
        }
        for path in paths {
            let columns = parts.map { $0.numericColumn(path) }
            result.numeric.append(mergedNumbers(path, columns, sources: sources))
            for column in columns { column?.releaseResidentPages() }
        }
        result.geo = mergedGeo(parts.map(\.geo), sources: sources)
        return result
    }

    private static func mergedColumn(_ name: String, _ columns: [FacetColumn?], counts: [Int], dead: [Bitset],
                                     sources: [SegmentMerge.Origin]) -> FacetColumn {
        var values = FacetValueInterner()
        var remaps: [[UInt32]] = []
        var idCount = 0
        for (p, column) in columns.enumerated() {
            guard let column else {
                remaps.append([])
                continue
            }
            var remap = [UInt32](repeating: .max, count: column.values.count)
            for ordinal in 0..<counts[p] where !dead[p].contains(ordinal) {
                column.forEachValue(of: ordinal) { old in
                    idCount += 1
                    if remap[old] == .max { remap[old] = values.intern(column.values[old], numeric: column.numericFlags[old] != 0) }
                }
            }
            remaps.append(remap)
        }
        var starts = [UInt32](repeating: 0, count: sources.count + 1)
        let ids = StoredArray<UInt32>(count: idCount) { ids in
            var at = 0
            for (ordinal, source) in sources.enumerated() {
                let p = Int(source.part)
                if let column = columns[p] {
                    let remap = remaps[p]
                    column.forEachValue(of: Int(source.ordinal)) { old in
                        ids[at] = remap[old]
                        at += 1
                    }
                }
                starts[ordinal + 1] = UInt32(at)
            }
        }
        return FacetColumn(name: name, values: values.texts, numericFlags: values.flags, starts: StoredArray(starts), ids: ids)
    }

    private static func mergedNumbers(_ path: String, _ columns: [NumericColumn?], sources: [SegmentMerge.Origin]) -> NumericColumn {
        /// Part `p`'s numbers of its document `d` (NaN, a missing number, left out as a build leaves it out).
        func forEachNumber(_ p: Int, _ d: Int, _ body: (Double) -> Void) {
            guard let column = columns[p] else { return }
            if column.isSingleValued {
                if d < column.count, !column[d].isNaN { body(column[d]) }
            } else if d + 1 < column.starts.count {
                for i in Int(column.starts[d])..<Int(column.starts[d + 1]) { body(column[i]) }
            }
        }
        var total = 0, single = true
        for source in sources {
            var held = 0
            forEachNumber(Int(source.part), Int(source.ordinal)) { _ in held += 1 }
            total += held
            single = single && held <= 1
        }
        if single {
            var values = [Double](repeating: .nan, count: sources.count)
            for (ordinal, source) in sources.enumerated() {
                forEachNumber(Int(source.part), Int(source.ordinal)) { values[ordinal] = $0 }
            }
            return NumericColumn(path: path, starts: StoredArray(), values: values)
        }
        var starts = [UInt32](repeating: 0, count: sources.count + 1), values: [Double] = []
        values.reserveCapacity(total)
        for (ordinal, source) in sources.enumerated() {
            forEachNumber(Int(source.part), Int(source.ordinal)) { values.append($0) }
            starts[ordinal + 1] = UInt32(values.count)
        }
        return NumericColumn(path: path, starts: StoredArray(starts), values: values)
    }

    private static func mergedGeo(_ columns: [GeoColumn], sources: [SegmentMerge.Origin]) -> GeoColumn {
        guard columns.contains(where: { !$0.latitudes.isEmpty }) else { return .empty }
        var starts: [UInt32] = [0], latitudes: [Double] = [], longitudes: [Double] = []
        starts.reserveCapacity(sources.count + 1)
        for source in sources {
            let column = columns[Int(source.part)]
            for i in column.points(of: Int(source.ordinal)) {
                latitudes.append(column.latitudes[i])
                longitudes.append(column.longitudes[i])
            }
            starts.append(UInt32(latitudes.count))
        }
        // No points, no starts, as a build leaves them.
        guard !latitudes.isEmpty else { return .empty }
        return GeoColumn(starts: StoredArray(starts), latitudes: StoredArray(latitudes), longitudes: StoredArray(longitudes))
    }
}
