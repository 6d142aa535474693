extension String {
    /// Without the spaces at either end (Algolia's lists are written "a, b").
    package var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
