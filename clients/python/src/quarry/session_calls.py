"""The session methods as ``Call``s (wire names and params in one place), the
filter helpers, and the typed notifications a session receives."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Union

from .calls import Call, search_params
from .types import FacetSearchResponse, JSONObject, SearchResponse

SearcherResult = Union[SearchResponse, FacetSearchResponse, JSONObject]


def _version(result: Any) -> int:
    value = result.get("stateVersion") if isinstance(result, dict) else None
    return value if isinstance(value, int) else 0


def _searcher_id(result: Any) -> str:
    value = result.get("searcher") if isinstance(result, dict) else None
    return str(value) if value is not None else ""


def _identity(result: Any) -> Any:
    return result


@dataclass(frozen=True)
class StateChanged:
    """A session's state (query, filters, searchers) at one version, whoever changed it."""

    session: str
    state_version: int
    state: JSONObject

    @property
    def query(self) -> str:
        return str(self.state.get("query", ""))

    @property
    def filters(self) -> str:
        """The filter state rendered as Algolia's ``filters`` string."""
        return str(self.state.get("filters", ""))

    @property
    def searchers(self) -> List[JSONObject]:
        return [item for item in self.state.get("searchers") or [] if isinstance(item, dict)]

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

    @property
    def exhaustive(self) -> bool:
        """``False`` when some counts are estimates: on a Typesense cluster a second update of the
        same version, with the exact counts, follows unless a newer version comes first."""
        return self.raw.get("exhaustive") is not False

    def for_searcher(self, searcher: str) -> SearcherResult:
        for result in self.results:
            identifier = result.get("searcher") if isinstance(result, dict) else result.searcher
            if identifier == searcher:
                return result
        raise LookupError(f"no results for searcher {searcher!r}")

    @classmethod
    def from_json(cls, params: JSONObject) -> "ResultsUpdate":
        return cls(str(params.get("session", "")), _version(params),
                   [parse_searcher_result(item) for item in params.get("results") or []], params)


def parse_searcher_result(item: Any) -> SearcherResult:
    """A searcher's entry: hits or facet values; an entry with ``error`` stays a dict."""
    if not isinstance(item, dict) or "error" in item:
        return item if isinstance(item, dict) else {"value": item}
    if item.get("type") == "facets" or "facetHits" in item:
        return FacetSearchResponse.from_json(item)
    return SearchResponse.from_json(item)


# Filters, as toggleFilter and setFilters take them.

def facet_filter(attribute: str, value: Union[str, int, float, bool], negated: bool = False) -> JSONObject:
    return {"attribute": attribute, "value": value, "negated": negated}


def numeric_filter(attribute: str, operator: str, value: float, negated: bool = False) -> JSONObject:
    return {"attribute": attribute, "operator": operator, "value": value, "negated": negated}


def range_filter(attribute: str, lower: float, upper: float, negated: bool = False) -> JSONObject:
    return {"attribute": attribute, "lower": lower, "upper": upper, "negated": negated}


def tag_filter(tag: str, negated: bool = False) -> JSONObject:
    return {"tag": tag, "negated": negated}


def group(name: str, operator: str = "or") -> JSONObject:
    """A filter group: ``operator`` is ``"and"`` or ``"or"``."""
    return {"name": name, "operator": operator}


def _group_for(filter: Mapping[str, Any], name: Optional[str], operator: str) -> JSONObject:
    return group(name or str(filter.get("attribute") or "_tags"), operator)


# Calls

def hits_searcher(index: str, **params: Any) -> JSONObject:
    """A hits searcher for ``open_session(searchers=[…])``."""
    return {**search_params(params), "type": "hits", "index": index}


def facets_searcher(index: str, attribute: str) -> JSONObject:
    return {"type": "facets", "index": index, "attribute": attribute}


def open_session(name: Optional[str], searchers: Optional[Sequence[Mapping[str, Any]]]) -> Call[Any]:
    params: dict[str, Any] = {}
    if name is not None:
        params["session"] = name
    if searchers is not None:
        params["searchers"] = [dict(item) for item in searchers]
    return Call("openSession", params, _identity)


def close_session(name: str) -> Call[Any]:
    return Call("closeSession", {"session": name}, _identity)


def get_state(name: str) -> Call[StateChanged]:
    return Call("getState", {"session": name}, lambda result: StateChanged.from_json({"session": name, **result}))


def list_sessions() -> Call[Any]:
    return Call("listSessions", {}, _identity)


def add_hits_searcher(name: str, index: str, params: Mapping[str, Any]) -> Call[str]:
    return Call("addHitsSearcher", {**search_params(params), "session": name, "index": index}, _searcher_id)


def add_facets_searcher(name: str, index: str, attribute: str) -> Call[str]:
    return Call("addFacetsSearcher", {"session": name, "index": index, "attribute": attribute}, _searcher_id)


def remove_searcher(name: str, searcher: str) -> Call[int]:
    return Call("removeSearcher", {"session": name, "searcher": searcher}, _version)


def set_query(name: str, query: str) -> Call[int]:
    return Call("setQuery", {"session": name, "query": query}, _version)


def toggle_filter(name: str, filter: Mapping[str, Any], group_name: Optional[str], operator: str,
                  selection_mode: Optional[str], items: Optional[Sequence[Mapping[str, Any]]]) -> Call[int]:
    params: dict[str, Any] = {"session": name, "filter": dict(filter), "group": _group_for(filter, group_name, operator)}
    if selection_mode is not None:
        params["selectionMode"] = selection_mode
    if items is not None:
        params["items"] = [dict(item) for item in items]
    return Call("toggleFilter", params, _version)


def set_filters(name: str, filters: Sequence[Mapping[str, Any]], group_name: str, operator: str) -> Call[int]:
    return Call("setFilters", {"session": name, "group": group(group_name, operator),
                               "filters": [dict(item) for item in filters]}, _version)


def clear_filters(name: str, groups: Optional[Sequence[Any]], except_: Optional[Sequence[Any]]) -> Call[int]:
    params: dict[str, Any] = {"session": name}
    if groups is not None:
        params["groups"] = list(groups)
    if except_ is not None:
        params["except"] = list(except_)
    return Call("clearFilters", params, _version)


def set_hierarchical_filter(name: str, attributes: Sequence[str], path: Optional[str],
                            separator: Optional[str], menu: Optional[str]) -> Call[int]:
    params: dict[str, Any] = {"session": name, "attributes": list(attributes), "path": path}
    if separator is not None:
        params["separator"] = separator
    if menu is not None:
        params["name"] = menu
    return Call("setHierarchicalFilter", params, _version)


def toggle_relevant_sort(name: str, searcher: str) -> Call[int]:
    return Call("toggleRelevantSort", {"session": name, "searcher": searcher}, _version)


def set_index(name: str, searcher: str, index: str) -> Call[int]:
    return Call("setIndex", {"session": name, "searcher": searcher, "index": index}, _version)


def load_page(name: str, searcher: str, page: int, state_version: int) -> Call[SearcherResult]:
    return Call("loadPage", {"session": name, "searcher": searcher, "page": page, "stateVersion": state_version},
                lambda reply: parse_searcher_result(reply.get("result", reply) if isinstance(reply, dict) else reply))
