import QuarryFilters
import QuarryJSON

/// A hierarchical menu (protocol/sessions.md): level attributes `lvl0, lvl1, …` whose
/// values are full paths (`"A"`, `"A > B"`). The selection is one facet filter
/// on the deepest selected level, kept in the filter state's
/// `hierarchical(name)` group; the menu itself only knows its levels.
public struct HierarchicalMenu: Sendable, Hashable {
    public static let defaultSeparator = " > "

    public var name: String
    public var attributes: [String]
    public var separator: String

    public init(name: String, attributes: [String], separator: String = HierarchicalMenu.defaultSeparator) throws(SessionError) {
        guard !attributes.isEmpty else { throw .invalidParameter("attributes", "a non-empty array of attribute names") }
        guard !separator.isEmpty else { throw .invalidParameter("separator", "a non-empty string") }
        self.name = name
        self.attributes = attributes
        self.separator = separator
    }

    public var group: FilterGroupID { .hierarchical(name) }

    /// The selected path in `state` (the value of its one filter), if any.
    public func path(in state: FilterState) -> String? {
        for atom in state.filters(in: group) {
            if case .facet(_, let value) = atom.condition { return value.text }
        }
        return nil
    }

    /// The selection after the user picks `path` (nil or "" clears). Picking
    /// the selected path, or one of its ancestors, moves up to that value's
    /// parent, so picking the current path again deselects one level.
    public func selecting(_ path: String?, current: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        if let current, current == path || current.hasPrefix(path + separator) { return parent(of: path) }
        return path
    }

    /// `"A > B"` → `"A"`; a top-level value has no parent.
    public func parent(of path: String) -> String? {
        guard let range = path.ranges(of: separator).last else { return nil }
        return String(path[..<range.lowerBound])
    }

    /// The path's ancestors and itself: `"A > B"` → `["A", "A > B"]`.
    public func levels(of path: String) -> [String] {
        var levels: [String] = []
        var current: String? = path
        while let value = current {
            levels.insert(value, at: 0)
            current = parent(of: value)
        }
        return levels
    }

    /// Makes `state` select `path` (nil: nothing), as one filter on the path's level.
    public func apply(_ path: String?, to state: inout FilterState) throws(SessionError) {
        guard let path else {
            state.clear(group)
            return
        }
        let depth = levels(of: path).count - 1
        guard depth < attributes.count else {
            throw .invalidParameter("path", "a path of at most \(attributes.count) levels for attributes \(attributes), got \"\(path)\"")
        }
        try state.replace(group, with: [.facet(attributes[depth], .string(path))])
    }

    /// `{attributes, separator, path}`, as the session's state lists the menu.
    public func json(path: String?) -> JSON {
        ["attributes": .array(attributes.map(JSON.string)), "separator": .string(separator), "path": path.map(JSON.string) ?? .null]
    }
}
