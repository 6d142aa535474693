import QuarrySearchContract

/// Which records do `aroundRadius`, `insideBoundingBox` and `insidePolygon` keep, as `filter_by` on
/// `_q_geo`? A radius is a circle in km; a box becomes a four-point polygon (Typesense's polygon
/// edges are geodesic, the engine's are straight in degrees, so points near a long edge can differ);
/// boxes OR together, polygons OR together, and the three kinds AND. nil when nothing is excluded.
enum GeoFiltering {
    static func filter(_ geo: GeoQuery?) -> String? {
        guard let geo else { return nil }
        var parts: [String] = []
        if let radius = geo.radius, let center = geo.center {
            parts.append("\(FieldNames.geo):(\(center.lat), \(center.lng), \(radius / 1000) km)")
        }
        if !geo.polygons.isEmpty {
            parts.append(anyOf(geo.polygons.map(polygon)))
        }
        if !geo.boxes.isEmpty {
            parts.append(anyOf(geo.boxes.map { box in polygon([box[0], box[1], box[0], box[3], box[2], box[3], box[2], box[1]]) }))
        }
        return parts.isEmpty ? nil : parts.joined(separator: " && ")
    }

    private static func polygon(_ points: [Double]) -> String {
        "\(FieldNames.geo):(" + points.map { "\($0)" }.joined(separator: ", ") + ")"
    }

    private static func anyOf(_ filters: [String]) -> String {
        filters.count == 1 ? filters[0] : "(" + filters.joined(separator: " || ") + ")"
    }
}
