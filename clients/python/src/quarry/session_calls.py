"""The session methods as ``Call``s (wire names and params in one place), and
the typed notifications a session receives."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Union

from .calls import Call, search_params
from .types import FacetSearchResponse, JSONObject, SearchResponse

SearcherResult = Union[SearchResponse, FacetSearchResponse, JSONObject]


def _version(result: Any) -> int:
    value = result.get("stateVersion") if isinstance(result, dict) else None
    return value if isinstance(value, int) else 0


def _searcher_id(result: Any) -> str:
    value = result.get("searcher") if isinstance(result, dict) else None
    if isinstance(value, dict):
        value = value.get("id")
    return str(value) if value is not None else ""


def _identity(result: Any) -> Any:
    return result


@dataclass(frozen=True)
class StateChanged:
    """A session's new state, whoever changed it."""

    session: str
    state_version: int
    state: JSONObject

    @property
    def query(self) -> str:
        return str(self.state.get("query", ""))

    @classmethod
    def from_json(cls, params: JSONObject) -> "StateChanged":
        state = params.get("state")
        return cls(str(params.get("session", "")), _version(params), state if isinstance(state, dict) else {})


@dataclass(frozen=True)
class ResultsUpdate:
    """Every searcher's results for one state version, in searcher order."""

    session: str
    state_version: int
    results: List[SearcherResult]
    raw: JSONObject = field(default_factory=dict, repr=False)

    @property
    def hits(self) -> SearchResponse:
        """The first hits searcher's results."""
        for result in self.results:
            if isinstance(result, SearchResponse):
                return result
        raise LookupError("the session has no hits searcher")

    @classmethod
    def from_json(cls, params: JSONObject) -> "ResultsUpdate":
        return cls(str(params.get("session", "")), _version(params),
                   [parse_searcher_result(item) for item in params.get("results") or []], params)


def parse_searcher_result(item: Any) -> SearcherResult:
    if not isinstance(item, dict):
        return {"value": item}
    if "hits" in item:
        return SearchResponse.from_json(item)
    if "facetHits" in item:
        return FacetSearchResponse.from_json(item)
    return item


def open_session(name: str, options: Mapping[str, Any]) -> Call[Any]:
    return Call("openSession", {**search_params(options), "session": name}, _identity)


def close_session(name: str) -> Call[Any]:
    return Call("closeSession", {"session": name}, _identity)


def add_hits_searcher(name: str, index: str, params: Mapping[str, Any]) -> Call[str]:
    return Call("addHitsSearcher", {**search_params(params), "session": name, "index": index}, _searcher_id)


def add_facet_searcher(name: str, index: str, attribute: str, params: Mapping[str, Any]) -> Call[str]:
    return Call("addFacetSearcher", {**search_params(params), "session": name, "index": index,
                                     "attribute": attribute}, _searcher_id)


def remove_searcher(name: str, searcher: str) -> Call[int]:
    return Call("removeSearcher", {"session": name, "searcher": searcher}, _version)


def set_query(name: str, query: str) -> Call[int]:
    return Call("setQuery", {"session": name, "query": query}, _version)


def toggle_filter(name: str, filter: Mapping[str, Any], group: Optional[Mapping[str, Any]]) -> Call[int]:
    params: dict[str, Any] = {"session": name, "filter": dict(filter)}
    if group is not None:
        params["group"] = dict(group)
    return Call("toggleFilter", params, _version)


def clear_filters(name: str, params: Mapping[str, Any]) -> Call[int]:
    return Call("clearFilters", {**search_params(params), "session": name}, _version)


def toggle_relevant_sort(name: str, searcher: Optional[str]) -> Call[int]:
    params: dict[str, Any] = {"session": name}
    if searcher is not None:
        params["searcher"] = searcher
    return Call("toggleRelevantSort", params, _version)


def set_searcher_index(name: str, searcher: str, index: str) -> Call[int]:
    return Call("setSearcherIndex", {"session": name, "searcher": searcher, "index": index}, _version)


def load_page(name: str, searcher: str, page: int, state_version: int) -> Call[SearcherResult]:
    return Call("loadPage", {"session": name, "searcher": searcher, "page": page, "stateVersion": state_version},
                parse_searcher_result)


def get_state(name: str) -> Call[StateChanged]:
    return Call("getSessionState", {"session": name},
                lambda result: StateChanged.from_json({**result, "session": name}))


def facet_filter(attribute: str, value: Any, negated: bool = False) -> dict[str, Any]:
    """A facet filter, as ``toggle_filter`` takes it."""
    return {"type": "facet", "attribute": attribute, "value": value, "negated": negated}


def or_group(name: str, filter_type: str = "facet") -> dict[str, Any]:
    return {"name": name, "kind": "or", "filterType": filter_type}


def and_group(name: str) -> dict[str, Any]:
    return {"name": name, "kind": "and"}
