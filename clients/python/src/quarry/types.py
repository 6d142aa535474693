"""Typed views of the daemon's results. Each keeps the reply it came from in
``raw``, so fields this version does not know are still reachable."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

JSONObject = Dict[str, Any]
Span = Tuple[int, int]


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _str_list(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


@dataclass(frozen=True)
class ServerInfo:
    """What ``initialize`` negotiated."""

    name: str
    version: str
    protocol_version: str
    position_encoding: str
    methods: List[str]
    raw: JSONObject = field(repr=False)

    @classmethod
    def from_json(cls, result: JSONObject) -> "ServerInfo":
        info = result.get("serverInfo") or {}
        capabilities = result.get("capabilities") or {}
        return cls(info.get("name", ""), info.get("version", ""), result.get("protocolVersion", ""),
                   capabilities.get("positionEncoding", "utf-16"), _str_list(capabilities.get("methods")), result)


def str_spans(text: str, spans: List[Span], encoding: str) -> List[Span]:
    """Match ranges counted in ``encoding`` units ("utf-8" bytes, "utf-16" code
    units or "utf-32" code points) as indices into the Python string ``text``;
    spans that fall inside a character or past the end are dropped."""
    if encoding == "utf-32":  # already Python indices
        return [(start, end) for start, end in spans if 0 <= start < end <= len(text)]
    index_at: Dict[int, int] = {0: 0}
    units = 0
    for position, character in enumerate(text, 1):
        units += len(character.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(character.encode())
        index_at[units] = position
    return [(index_at[start], index_at[end]) for start, end in spans
            if start in index_at and end in index_at and start < end]


@dataclass(frozen=True)
class Hit:
    """One record of a result page, with its highlighting and match ranges."""

    object_id: str
    record: JSONObject
    highlight_result: Optional[JSONObject] = None
    snippet_result: Optional[JSONObject] = None
    match_ranges: Dict[str, List[Span]] = field(default_factory=dict)
    ranking_info: Optional[JSONObject] = None

    @classmethod
    def from_json(cls, hit: JSONObject) -> "Hit":
        record = {key: value for key, value in hit.items() if not key.startswith("_")}
        ranges = {path: [(int(span[0]), int(span[1])) for span in spans if isinstance(span, list) and len(span) == 2]
                  for path, spans in (hit.get("_matchRanges") or {}).items() if isinstance(spans, list)}
        return cls(str(hit.get("objectID", "")), record, hit.get("_highlightResult"), hit.get("_snippetResult"),
                   ranges, hit.get("_rankingInfo"))

    def __getitem__(self, attribute: str) -> Any:
        return self.record[attribute]

    def get(self, attribute: str, default: Any = None) -> Any:
        return self.record.get(attribute, default)

    def spans(self, attribute: str, encoding: str) -> List[Span]:
        """The attribute's match ranges as indices into its Python string
        (``encoding``: the client's ``position_encoding``)."""
        value = self.record.get(attribute)
        return str_spans(value, self.match_ranges.get(attribute, []), encoding) if isinstance(value, str) else []

    def highlighted(self, attribute: str) -> Optional[str]:
        """The attribute's value with the highlight tags, if it was highlighted."""
        value = (self.highlight_result or {}).get(attribute)
        return value.get("value") if isinstance(value, dict) else None


def count_text(count: int, noun: str, estimate: bool = False) -> str:
    """``"no hits"``, ``"1 hit"``, ``"1,216 hits"``; ``"~1,200 hits"`` for an estimate."""
    if estimate:
        return f"~{count:,} {noun}s"
    if count == 0:
        return f"no {noun}s"
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _exhaustive(result: JSONObject, key: str, older: str) -> bool:
    """Algolia's ``exhaustive.<key>`` or its older top-level flag; absent is exact."""
    flags = result.get("exhaustive")
    if isinstance(flags, dict) and flags.get(key) is False:
        return False
    return result.get(older) is not False


@dataclass(frozen=True)
class SearchResponse:
    """One page of hits, shaped like Algolia's response."""

    hits: List[Hit]
    nb_hits: int
    page: int
    nb_pages: int
    hits_per_page: int
    query: str
    processing_time_ms: int
    #: As the daemon sent them, in two shapes: ``{attribute: {value: count}}``
    #: from ``search`` (Algolia's), and in a session ``{attribute: [{"value",
    #: "count", "isRefined"}]}`` (refinement lists, in display order).
    #: ``facet_counts()`` reads either.
    facets: Optional[Dict[str, Any]] = None
    facets_stats: Optional[JSONObject] = None
    index: Optional[str] = None
    #: In a session: the searcher these results belong to, and on a virtual
    #: replica the relevant-sort state (``priority``, ``hint``, ``toggleTitle``).
    searcher: Optional[str] = None
    relevant_sort: Optional[JSONObject] = None
    raw: JSONObject = field(default_factory=dict, repr=False)

    def facet_counts(self, attribute: str) -> Dict[str, int]:
        """``{value: count}`` for one facet, from ``search`` or from a session
        alike (in the session's order); empty when the facet was not asked for."""
        values = (self.facets or {}).get(attribute)
        if isinstance(values, dict):
            return {str(value): _int(count) for value, count in values.items()}
        if isinstance(values, list):
            return {str(item.get("value")): _int(item.get("count")) for item in values if isinstance(item, dict)}
        return {}

    @property
    def exhaustive_nb_hits(self) -> bool:
        """``False`` when ``nb_hits`` is an estimate (a Typesense cluster's fast answer); exact ones follow."""
        return _exhaustive(self.raw, "nbHits", "exhaustiveNbHits")

    @property
    def exhaustive_facets_count(self) -> bool:
        """``False`` when the facet counts are estimates."""
        return _exhaustive(self.raw, "facetsCount", "exhaustiveFacetsCount")

    @property
    def hits_text(self) -> str:
        """The hit count as a frontend shows it: ``"no hits"``, ``"1 hit"``, ``"1,216 hits"``, and an
        estimate as one: ``"~1,200 hits"``."""
        return count_text(self.nb_hits, "hit", estimate=not self.exhaustive_nb_hits)

    @classmethod
    def from_json(cls, result: JSONObject) -> "SearchResponse":
        return cls([Hit.from_json(hit) for hit in result.get("hits") or [] if isinstance(hit, dict)],
                   _int(result.get("nbHits")), _int(result.get("page")), _int(result.get("nbPages")),
                   _int(result.get("hitsPerPage")), result.get("query", ""), _int(result.get("processingTimeMS")),
                   result.get("facets"), result.get("facets_stats"), result.get("index"), result.get("searcher"),
                   result.get("relevantSort"), result)


@dataclass(frozen=True)
class FacetHit:
    value: str
    highlighted: str
    count: int
    is_refined: Optional[bool] = None


@dataclass(frozen=True)
class FacetSearchResponse:
    """The values of one facet that match a facet query, with their counts."""

    facet_hits: List[FacetHit]
    exhaustive_facets_count: bool
    processing_time_ms: int
    searcher: Optional[str] = None
    attribute: Optional[str] = None
    raw: JSONObject = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, result: JSONObject) -> "FacetSearchResponse":
        hits = [FacetHit(str(item.get("value", "")), str(item.get("highlighted", item.get("value", ""))),
                         _int(item.get("count")), item.get("isRefined"))
                for item in result.get("facetHits") or [] if isinstance(item, dict)]
        return cls(hits, bool(result.get("exhaustiveFacetsCount", True)), _int(result.get("processingTimeMS")),
                   result.get("searcher"), result.get("attribute"), result)


@dataclass(frozen=True)
class WriteResult:
    """A committed write: the index's generation after it, and the records it named."""

    task_id: int
    object_ids: List[str] = field(default_factory=list)

    @classmethod
    def from_json(cls, result: JSONObject) -> "WriteResult":
        return cls(_int(result.get("taskID")), _str_list(result.get("objectIDs")))


@dataclass(frozen=True)
class SettingsResult:
    task_id: int
    unsupported: List[str]

    @classmethod
    def from_json(cls, result: JSONObject) -> "SettingsResult":
        return cls(_int(result.get("taskID")), _str_list(result.get("unsupported")))


@dataclass(frozen=True)
class ImportResult:
    index: str
    imported: int
    skipped: int
    skipped_reasons: List[str]
    task_id: int
    duration_ms: int

    @classmethod
    def from_json(cls, result: JSONObject) -> "ImportResult":
        return cls(str(result.get("index", "")), _int(result.get("imported")), _int(result.get("skipped")),
                   _str_list(result.get("skippedReasons")), _int(result.get("taskID")), _int(result.get("durationMS")))


@dataclass(frozen=True)
class Progress:
    """One ``$/progress`` report of an import."""

    kind: str
    percentage: Optional[int]
    message: Optional[str] = None
    title: Optional[str] = None
    records: Optional[int] = None
    bytes: Optional[int] = None
    total_bytes: Optional[int] = None

    @classmethod
    def from_json(cls, value: JSONObject) -> "Progress":
        return cls(str(value.get("kind", "")), value.get("percentage"), value.get("message"), value.get("title"),
                   value.get("records"), value.get("bytes"), value.get("totalBytes"))


@dataclass(frozen=True)
class IndexInfo:
    name: str
    entries: int
    data_size: int
    file_size: int
    created_at: str
    updated_at: str
    replicas: List[str] = field(default_factory=list)
    #: Only from ``list_indices(memory=True)``: bytes per search structure (see the protocol's listIndices page).
    memory: Optional[JSONObject] = None

    @classmethod
    def from_json(cls, item: JSONObject) -> "IndexInfo":
        memory = item.get("memory")
        return cls(str(item.get("name", "")), _int(item.get("entries")), _int(item.get("dataSize")),
                   _int(item.get("fileSize")), str(item.get("createdAt", "")), str(item.get("updatedAt", "")),
                   _str_list(item.get("replicas")), memory if isinstance(memory, dict) else None)


@dataclass(frozen=True)
class BrowsePage:
    """One page of ``browse``: records in the order ties rank (the order they were first
    saved), and where the next page starts."""

    hits: List[JSONObject]
    nb_hits: int
    #: ``None`` on the last page.
    cursor: Optional[str]
    raw: JSONObject = field(repr=False)

    @classmethod
    def from_json(cls, result: JSONObject) -> "BrowsePage":
        hits = [hit for hit in result.get("hits") or [] if isinstance(hit, dict)]
        cursor = result.get("cursor")
        return cls(hits, _int(result.get("nbHits")), cursor if isinstance(cursor, str) else None, result)
