import QuarryEngine
import QuarryJSON
import XCTest
import QuarrySearchContract

/// A small catalogue with every kind of facet: single and multi-valued text, numbers, tags,
/// nested attributes and three hierarchical levels.
enum FacetFixtures {
    static let products: [JSONObject] = [
        product("1", "red shirt", color: "Red", brand: "Acme", price: 10, tags: ["sale"], sizes: ["S", "M"], lvl: ["Clothes", "Clothes > Tops"]),
        product("2", "blue shirt", color: "Blue", brand: "Acme", price: 20, tags: ["new"], sizes: ["M"], lvl: ["Clothes", "Clothes > Tops"]),
        product("3", "red dress", color: "red", brand: "Zeta", price: 30, tags: ["Sale"], sizes: ["L"], lvl: ["Clothes", "Clothes > Dresses"]),
        product("4", "green shirt", color: "Green", brand: "Zeta", price: 40, tags: [], sizes: ["S"], lvl: ["Clothes", "Clothes > Tops"]),
        product("5", "blue shoes", color: "Blue", brand: "Bolt", price: 50, tags: ["new", "sale"], sizes: ["M", "L"], lvl: ["Shoes", "Shoes > Boots"]),
        product("6", "red shoes", color: "Red", brand: "Bolt", price: 60, tags: ["sale"], sizes: [], lvl: ["Shoes", "Shoes > Sneakers"]),
    ]

    static func product(_ id: String, _ name: String, color: String, brand: String, price: Double, tags: [String],
                        sizes: [String], lvl: [String]) -> JSONObject {
        [
            "objectID": .string(id), "name": .string(name), "color": .string(color), "price": .double(price),
            "maker": ["name": .string(brand)], "_tags": .array(tags.map { .string($0) }), "sizes": .array(sizes.map { .string($0) }),
            "category": ["lvl0": .string(lvl[0]), "lvl1": .string(lvl[1])],
            "_geoloc": [["lat": .double(40 + price / 10), "lng": 2], ["lat": .double(-40 - price / 10), "lng": 2]],
        ]
    }

    static let settings = IndexSettings.with {
        $0.searchableAttributes = [SearchableAttribute(paths: ["name"])]
        $0.attributesForFaceting = [
            FacetAttribute(attribute: "color"), FacetAttribute(attribute: "maker.name", modifier: .searchable),
            FacetAttribute(attribute: "price"), FacetAttribute(attribute: "sizes", modifier: .filterOnly),
            FacetAttribute(attribute: "category.lvl0"), FacetAttribute(attribute: "category.lvl1"),
        ]
    }

    static var fixture: SearchFixture { SearchFixture(products, settings: settings) }
}

extension SearchResponse {
    /// `facets[attribute]` as value → count.
    func facet(_ attribute: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for (value, count) in extra["facets"]?[attribute]?.objectValue ?? [:] { result[value] = count.intValue ?? -1 }
        return result
    }

    var ids: [String] { hits.compactMap { $0["objectID"]?.stringValue } }
}
