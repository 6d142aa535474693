"""Every index method as a ``Call``: its wire name, its params and how to read
its result. The blocking and the asyncio client both run these, so they offer
one API and cannot drift."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Mapping, Optional, TypeVar

from .types import (BrowsePage, FacetSearchResponse, ImportResult, IndexInfo, SearchResponse, SettingsResult, WriteResult)

T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    params: dict[str, Any]
    parse: Callable[[Any], T]


def _camel(name: str) -> str:
    """``hits_per_page`` → ``hitsPerPage``; names already in camelCase pass through."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def search_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword search parameters under Algolia's names; ``None`` values are left out."""
    return {_camel(key): value for key, value in params.items() if value is not None}


def _identity(result: Any) -> Any:
    return result


def save_objects(index: str, objects: Iterable[Mapping[str, Any]]) -> Call[WriteResult]:
    return Call("saveObjects", {"index": index, "objects": [dict(item) for item in objects]}, WriteResult.from_json)


def partial_update_objects(index: str, objects: Iterable[Mapping[str, Any]],
                           create_if_not_exists: bool = True) -> Call[WriteResult]:
    return Call("partialUpdateObjects", {"index": index, "objects": [dict(item) for item in objects],
                                         "createIfNotExists": create_if_not_exists}, WriteResult.from_json)


def delete_objects(index: str, object_ids: Iterable[str]) -> Call[WriteResult]:
    return Call("deleteObjects", {"index": index, "objectIDs": list(object_ids)}, WriteResult.from_json)


def clear_objects(index: str) -> Call[WriteResult]:
    return Call("clearObjects", {"index": index}, WriteResult.from_json)


def delete_index(index: str) -> Call[WriteResult]:
    return Call("deleteIndex", {"index": index}, WriteResult.from_json)


def list_indices(memory: bool = False) -> Call[list[IndexInfo]]:
    return Call("listIndices", {"memory": True} if memory else {}, lambda result: [IndexInfo.from_json(item) for item in result.get("items") or []])


def get_objects(index: str, object_ids: Iterable[str],
                attributes_to_retrieve: Optional[Iterable[str]] = None) -> Call[list[Optional[dict[str, Any]]]]:
    params: dict[str, Any] = {"index": index, "objectIDs": list(object_ids)}
    if attributes_to_retrieve is not None:
        params["attributesToRetrieve"] = list(attributes_to_retrieve)
    return Call("getObjects", params, lambda result: list(result.get("results") or []))


def browse(index: str, cursor: Optional[str], params: Mapping[str, Any]) -> Call[BrowsePage]:
    """The first page takes the query and filters in ``params``; later ones only the cursor
    (and optionally ``hitsPerPage`` or ``attributesToRetrieve``)."""
    body: dict[str, Any] = {"index": index, **search_params(params)}
    if cursor is not None:
        body["cursor"] = cursor
    return Call("browse", body, BrowsePage.from_json)


def get_settings(index: str) -> Call[dict[str, Any]]:
    return Call("getSettings", {"index": index}, _identity)


def set_settings(index: str, settings: Mapping[str, Any]) -> Call[SettingsResult]:
    return Call("setSettings", {"index": index, "settings": dict(settings)}, SettingsResult.from_json)


def import_file(index: str, path: str | os.PathLike[str], format: Optional[str] = None,
                settings: Optional[Mapping[str, Any]] = None, skip_invalid: bool = False) -> Call[ImportResult]:
    params: dict[str, Any] = {"index": index, "path": os.path.abspath(os.fspath(path)), "skipInvalid": skip_invalid}
    if format is not None:
        params["format"] = format
    if settings is not None:
        params["settings"] = dict(settings)
    return Call("importFile", params, ImportResult.from_json)


def search(index: str, query: str, params: Mapping[str, Any]) -> Call[SearchResponse]:
    return Call("search", {**search_params(params), "index": index, "query": query}, SearchResponse.from_json)


def search_for_facet_values(index: str, facet_name: str, facet_query: str,
                            params: Mapping[str, Any]) -> Call[FacetSearchResponse]:
    return Call("searchForFacetValues", {**search_params(params), "index": index, "facetName": facet_name,
                                         "facetQuery": facet_query}, FacetSearchResponse.from_json)


def raw(method: str, params: Optional[Mapping[str, Any]] = None) -> Call[Any]:
    return Call(method, dict(params or {}), _identity)
