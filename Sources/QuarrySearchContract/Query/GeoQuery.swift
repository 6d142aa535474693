#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import QuarryJSON

/// Where a search is centred or bounded: `aroundLatLng`, `aroundRadius`, `aroundPrecision`,
/// `insideBoundingBox`, `insidePolygon`.
///
/// A radius, boxes or polygons exclude records outside them (and records without `_geoloc`); a
/// centre alone only ranks (closer first under the `geo` criterion, in `aroundPrecision`-meter
/// steps so nearby records tie and later criteria decide; records without `_geoloc` last).
public struct GeoQuery: Sendable, Equatable {
    public var center: (lat: Double, lng: Double)?
    /// Meters; nil means no radius ("all", or none given).
    public var radius: Double?
    /// Each box: two corners (lat1, lng1, lat2, lng2).
    public var boxes: [[Double]] = []
    /// Each polygon: at least three points as lat, lng pairs.
    public var polygons: [[Double]] = []
    /// Distances rank in steps of this many meters.
    public var precision: Double = 10

    public static func == (a: GeoQuery, b: GeoQuery) -> Bool {
        a.center?.lat == b.center?.lat && a.center?.lng == b.center?.lng && a.radius == b.radius && a.boxes == b.boxes
            && a.polygons == b.polygons && a.precision == b.precision
    }

    /// nil when no geo parameter is given.
    package init?(json: JSONObject) throws(BackendError) {
        if let value = json["aroundLatLng"], !value.isNull {
            let numbers = try Self.numbers(value, name: "aroundLatLng", expected: "\"lat,lng\"")
            guard numbers.count == 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else {
                throw .invalidParameter(name: "aroundLatLng", expected: "\"lat,lng\" with a latitude within ±90 and a longitude within ±180")
            }
            center = (numbers[0], numbers[1])
        }
        if let value = json["aroundRadius"], !value.isNull, value.stringValue != "all" {
            let meters = value.doubleValue ?? value.stringValue.flatMap { Double($0) }
            guard let meters, meters >= 1 else { throw .invalidParameter(name: "aroundRadius", expected: "a number of meters ≥ 1, or \"all\"") }
            radius = meters
        }
        if let value = json["insideBoundingBox"], !value.isNull {
            let expected = "boxes [[lat1, lng1, lat2, lng2], …] or \"lat1,lng1,lat2,lng2\""
            var flat: [Double] = []
            if case .array(let items) = value, items.allSatisfy({ $0.arrayValue != nil }) {
                for item in items { flat += try Self.numbers(item, name: "insideBoundingBox", expected: expected) }
            } else {
                flat = try Self.numbers(value, name: "insideBoundingBox", expected: expected)
            }
            guard !flat.isEmpty, flat.count % 4 == 0 else { throw .invalidParameter(name: "insideBoundingBox", expected: expected) }
            boxes = stride(from: 0, to: flat.count, by: 4).map { Array(flat[$0..<$0 + 4]) }
        }
        if let value = json["insidePolygon"], !value.isNull {
            let expected = "polygons [[lat1, lng1, lat2, lng2, lat3, lng3, …], …] of at least 3 points"
            guard case .array(let items) = value else { throw .invalidParameter(name: "insidePolygon", expected: expected) }
            let nested = items.allSatisfy { $0.arrayValue != nil }
            for item in nested ? items : [value] {
                let points = try Self.numbers(item, name: "insidePolygon", expected: expected)
                guard points.count >= 6, points.count % 2 == 0 else { throw .invalidParameter(name: "insidePolygon", expected: expected) }
                polygons.append(points)
            }
        }
        if let value = json["aroundPrecision"], !value.isNull {
            guard let meters = value.doubleValue ?? value.stringValue.flatMap({ Double($0) }), meters >= 1 else {
                throw .invalidParameter(name: "aroundPrecision", expected: "a number of meters ≥ 1")
            }
            precision = meters
        }
        if center == nil && boxes.isEmpty && polygons.isEmpty {
            if radius != nil { throw .invalidParameter(name: "aroundRadius", expected: "used with aroundLatLng") }
            return nil
        }
    }

    /// The parameters that read back as this query.
    var json: JSONObject {
        var json: JSONObject = [:]
        if let center { json["aroundLatLng"] = .string("\(center.lat),\(center.lng)") }
        if let radius { json["aroundRadius"] = .double(radius) }
        if !boxes.isEmpty { json["insideBoundingBox"] = .array(boxes.map { .array($0.map(JSON.double)) }) }
        if !polygons.isEmpty { json["insidePolygon"] = .array(polygons.map { .array($0.map(JSON.double)) }) }
        if precision != 10 { json["aroundPrecision"] = .double(precision) }
        return json
    }

    private static func numbers(_ value: JSON, name: String, expected: String) throws(BackendError) -> [Double] {
        switch value {
        case .string(let text):
            let parts = text.split(separator: ",").map { Double(String($0).trimmingSpaces) }
            guard parts.allSatisfy({ $0 != nil }) else { throw .invalidParameter(name: name, expected: expected) }
            return parts.compactMap { $0 }
        case .array(let items):
            let parts = items.map { $0.doubleValue }
            guard parts.allSatisfy({ $0 != nil }) else { throw .invalidParameter(name: name, expected: expected) }
            return parts.compactMap { $0 }
        default:
            throw .invalidParameter(name: name, expected: expected)
        }
    }

    /// Whether a point passes the radius and boxes.
    package func contains(lat: Double, lng: Double) -> Bool {
        guard !lat.isNaN, !lng.isNaN else { return false }
        if let radius, let center, Self.distance(center.lat, center.lng, lat, lng) > radius { return false }
        if !polygons.isEmpty && !polygons.contains(where: { Self.inside(lat, lng, $0) }) { return false }
        if !boxes.isEmpty {
            return boxes.contains { box in
                let (lo, hi) = (min(box[0], box[2]), max(box[0], box[2]))
                let (west, east) = (min(box[1], box[3]), max(box[1], box[3]))
                return lat >= lo && lat <= hi && lng >= west && lng <= east
            }
        }
        return true
    }

    package var excludes: Bool { radius != nil || !boxes.isEmpty || !polygons.isEmpty }

    /// Even-odd ray casting on (lat, lng) as plane coordinates, as for small areas.
    static func inside(_ lat: Double, _ lng: Double, _ polygon: [Double]) -> Bool {
        let count = polygon.count / 2
        var inside = false
        var j = count - 1
        for i in 0..<count {
            let (yi, xi, yj, xj) = (polygon[2 * i], polygon[2 * i + 1], polygon[2 * j], polygon[2 * j + 1])
            if (yi > lat) != (yj > lat) && lng < (xj - xi) * (lat - yi) / (yj - yi) + xi { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Great-circle distance in meters (haversine on a 6,371 km sphere).
    package static func distance(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let r = 6_371_000.0, rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLng = (lng2 - lng1) * rad
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * r * asin(min(1, a.squareRoot()))
    }
}
