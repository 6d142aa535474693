"""Python client for Quarry, the local search daemon.

    from quarry import Client
    with Client.connect() as client:            # the shared daemon (started if absent)
        client.save_objects("people", [{"objectID": "1", "name": "George Clooney"}])
        print(client.search("people", "cloo").hits[0].highlighted("name"))

``AsyncClient`` offers the same methods for asyncio. Sessions
(``client.open_session(name)``) are shared by every frontend attached to them.
"""
from .aio import AsyncClient
from .client import Client
from .daemon import default_socket_path
from .errors import (BackendUnavailable, CannotConnect, ConnectionLost, ContentModified, DiskFull, InternalError, InvalidParams,
                     InvalidRequest, MethodNotFound, ParseError, QuarryError, RequestCancelled, RequestFailed, ResourceExhausted,
                     RpcError, ServerNotInitialized, StorageFailure)
from .session import Session
from .session_async import AsyncSession
from .session_calls import (ResultsUpdate, StateChanged, facet_filter, facets_searcher, group, hits_searcher,
                            numeric_filter, range_filter, tag_filter)
from .types import (BrowsePage, FacetHit, FacetSearchResponse, Hit, ImportResult, IndexInfo, Progress, SearchResponse,
                    ServerInfo, SettingsResult, WriteResult, str_spans)

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "AsyncSession", "BackendUnavailable", "BrowsePage", "CannotConnect", "Client", "ConnectionLost", "ContentModified", "DiskFull",
    "FacetHit",
    "FacetSearchResponse", "Hit", "ImportResult", "IndexInfo", "InternalError", "InvalidParams", "InvalidRequest",
    "MethodNotFound", "ParseError", "Progress", "QuarryError", "RequestCancelled", "RequestFailed", "ResourceExhausted", "ResultsUpdate", "RpcError",
    "SearchResponse", "ServerInfo", "ServerNotInitialized", "Session", "SettingsResult", "StateChanged", "StorageFailure",
    "WriteResult", "default_socket_path", "facet_filter", "facets_searcher", "group", "hits_searcher",
    "numeric_filter", "range_filter", "str_spans", "tag_filter",
]
