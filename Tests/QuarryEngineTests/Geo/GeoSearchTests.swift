import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// Geo search over `_geoloc`:
/// 1. `aroundLatLng` ranks closer records first under `geo`; records without `_geoloc` go last;
/// 2. `aroundRadius` keeps records within that many meters; `insideBoundingBox` and `insidePolygon`
///    keep records inside any of their shapes; `aroundPrecision` makes distances within a step tie;
/// 3. `_rankingInfo.geoDistance` is the distance in meters;
/// 4. malformed coordinates are errors naming the parameter.
final class GeoSearchTests: XCTestCase {
    // Paris, Lyon, Marseille, Brussels, and a record without a location.
    let fixture = SearchFixture([
        ["objectID": "paris", "name": "airport", "_geoloc": ["lat": 48.8566, "lng": 2.3522]],
        ["objectID": "lyon", "name": "airport", "_geoloc": ["lat": 45.7640, "lng": 4.8357]],
        ["objectID": "marseille", "name": "airport", "_geoloc": [["lat": 43.2965, "lng": 5.3698]]],
        ["objectID": "brussels", "name": "airport", "_geoloc": ["lat": 50.8503, "lng": 4.3517]],
        ["objectID": "nowhere", "name": "airport"],
    ])

    func testRanksByDistanceAndReportsIt() throws {
        let response = try XCTUnwrap(fixture.search("airport", ["aroundLatLng": "45.75, 4.85", "getRankingInfo": true]))
        XCTAssertEqual(response.ids, ["lyon", "marseille", "paris", "brussels", "nowhere"])
        let distance = response.hits.first?["_rankingInfo"]?["geoDistance"]?.intValue ?? -1
        XCTAssertTrue((1_000...2_500).contains(distance), "\(distance)")
        let paris = response.hits[2]["_rankingInfo"]?["geoDistance"]?.intValue ?? -1
        XCTAssertTrue((390_000...400_000).contains(paris), "Lyon–Paris is about 392 km, got \(paris)")
    }

    func testRadiusAndBoundingBox() throws {
        XCTAssertEqual(Set(fixture.ids("", ["aroundLatLng": "48.8566,2.3522", "aroundRadius": 300_000])), ["paris", "brussels"])
        XCTAssertEqual(fixture.nbHits("", ["aroundLatLng": "48.8566,2.3522", "aroundRadius": "all"]), 5)
        XCTAssertEqual(Set(fixture.ids("", ["insideBoundingBox": [[46.0, 2.0, 42.0, 6.0]]])), ["lyon", "marseille"])
        XCTAssertEqual(Set(fixture.ids("", ["insideBoundingBox": "46,2,42,6"])), ["lyon", "marseille"])
    }

    func testPolygonAndPrecision() throws {
        // A triangle around Lyon and Marseille, clear of Paris and Brussels.
        let triangle: JSON = [[48.0, 2.5, 41.0, 2.5, 44.5, 9.0]]
        XCTAssertEqual(Set(fixture.ids("", ["insidePolygon": triangle])), ["lyon", "marseille"])
        XCTAssertEqual(Set(fixture.ids("", ["insidePolygon": [48.0, 2.5, 41.0, 2.5, 44.5, 9.0]])), ["lyon", "marseille"])
        // 500 km steps around Lyon: Paris, Lyon and Marseille tie and keep their record order; Brussels is a step away.
        let stepped = try XCTUnwrap(fixture.search("airport", ["aroundLatLng": "45.75,4.85", "aroundPrecision": 500_000, "getRankingInfo": true]))
        XCTAssertEqual(stepped.ids, ["paris", "lyon", "marseille", "brussels", "nowhere"])
        XCTAssertTrue((390_000...400_000).contains(stepped.hits[0]["_rankingInfo"]?["geoDistance"]?.intValue ?? -1), "real distance reported")
    }

    func testSeveralPointsCountTheNearest() throws {
        let chain = SearchFixture([
            ["objectID": "chain", "name": "shop", "_geoloc": [["lat": 50.8503, "lng": 4.3517], ["lat": 43.2965, "lng": 5.3698]]],
            ["objectID": "lyon", "name": "shop", "_geoloc": ["lat": 45.7640, "lng": 4.8357]],
        ])
        XCTAssertEqual(chain.ids("", ["aroundLatLng": "43.30,5.37", "aroundRadius": 50_000]), ["chain"], "its Marseille shop is near")
        XCTAssertEqual(chain.ids("shop", ["aroundLatLng": "43.30,5.37"]), ["chain", "lyon"])
        XCTAssertEqual(chain.ids("shop", ["aroundLatLng": "46.0,4.8"]), ["lyon", "chain"])
        let reopened = chain.index.updating(upserts: [], deletions: [DocID(1)])
        XCTAssertEqual(chain.ids("", ["insideBoundingBox": [[44.0, 5.0, 42.0, 6.0]]], index: reopened), ["chain"])
    }

    func testMalformedCoordinatesAreErrors() {
        for parameters: JSONObject in [["aroundLatLng": "north"], ["aroundLatLng": "95,0"], ["insideBoundingBox": [[1, 2, 3]]],
                                       ["aroundLatLng": "1,2", "aroundRadius": -5], ["insidePolygon": [[1, 2, 3, 4]]],
                                       ["aroundLatLng": "1,2", "aroundPrecision": 0]] {
            XCTAssertThrowsError(try SearchParameters(json: parameters, settings: IndexSettings()), "\(parameters)")
        }
    }
}
