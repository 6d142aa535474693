import XCTest
@testable import QuarryWeb

/// Which methods a search-only key may call (protocol/keys.md): reads and session methods, nothing that
/// writes, imports, changes settings or ends the daemon; and a method unknown to the list is refused.
final class WebAccessTests: XCTestCase {
    func testSearchOnlyAllowsReadsAndSessions() {
        for method in ["initialize", "search", "searchForFacetValues", "getObjects", "browse", "getSettings", "listIndices",
                       "openSession", "closeSession", "setQuery", "toggleFilter", "setFilters", "clearFilters",
                       "setHierarchicalFilter", "setIndex", "loadPage", "toggleRelevantSort", "getState", "listSessions",
                       "addHitsSearcher", "addFacetsSearcher", "removeSearcher"] {
            XCTAssertTrue(WebAccess.searchOnly.permits(method), method)
        }
    }

    func testSearchOnlyRefusesWritesSettingsImportsAndShutdown() {
        for method in ["saveObjects", "partialUpdateObjects", "deleteObjects", "clearObjects", "deleteIndex",
                       "importFile", "setSettings", "shutdown", "stopServer", "aMethodAddedLater"] {
            XCTAssertFalse(WebAccess.searchOnly.permits(method), method)
        }
    }

    func testAdminAllowsEverything() {
        for method in ["saveObjects", "setSettings", "shutdown", "stopServer", "search"] {
            XCTAssertTrue(WebAccess.admin.permits(method), method)
        }
    }
}
