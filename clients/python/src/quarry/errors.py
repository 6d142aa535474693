"""Why a call failed: the daemon could not be reached or went away, or it
answered with a JSON-RPC error (code, message and data, as on the wire)."""
from __future__ import annotations

from typing import Any


class QuarryError(Exception):
    """Base class of every error this package raises."""


class CannotConnect(QuarryError):
    """No daemon answered, and none could be started."""


class ConnectionLost(QuarryError):
    """The daemon closed the connection (or exited) before replying."""


class RpcError(QuarryError):
    """A JSON-RPC error reply. Branch on ``code`` and ``data``, not ``message``."""

    code: int = 0

    def __init__(self, code: int, message: str, data: Any = None, method: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data
        self.method = method

    @property
    def parameter(self) -> str | None:
        """The parameter path the daemon blamed (``data.parameter``), if any."""
        if isinstance(self.data, dict):
            value = self.data.get("parameter")
            return value if isinstance(value, str) else None
        return None

    def __str__(self) -> str:
        where = f" ({self.method})" if self.method else ""
        return f"[{self.code}]{where} {self.message}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code}, message={self.message!r}, data={self.data!r})"


class ParseError(RpcError):
    code = -32700


class InvalidRequest(RpcError):
    code = -32600


class MethodNotFound(RpcError):
    code = -32601


class InvalidParams(RpcError):
    code = -32602


class InternalError(RpcError):
    """A bug in the daemon."""

    code = -32603


class DiskFull(RpcError):
    """The disk holding the data directory is full; nothing was written. Retry once space is freed."""

    code = -32010


class StorageFailure(RpcError):
    """The daemon's store failed (I/O error, damaged file); nothing was written."""

    code = -32011


class ResourceExhausted(RpcError):
    """A limit of the daemon or the machine (open files, memory) was reached; nothing was written."""

    code = -32012


class BackendUnavailable(RpcError):
    """The index's Typesense cluster cannot serve the request now (no node, no leader); a write was not applied."""

    code = -32013


class ServerNotInitialized(RpcError):
    code = -32002


class RequestCancelled(RpcError):
    code = -32800


class ContentModified(RpcError):
    """The session moved on to a newer state version than the one asked about."""

    code = -32801


class RequestFailed(RpcError):
    """A spawner relay's daemon stopped before answering; ``data["retry"]`` is true: send the request again."""

    code = -32803


_BY_CODE: dict[int, type[RpcError]] = {
    cls.code: cls
    for cls in (ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError, DiskFull,
                StorageFailure, ResourceExhausted, BackendUnavailable, ServerNotInitialized, RequestCancelled, ContentModified,
                RequestFailed)
}


def rpc_error(error: Any, method: str | None = None) -> RpcError:
    """The exception for a reply's ``error`` member, of the subclass its code names."""
    if not isinstance(error, dict):
        return InternalError(-32603, f"malformed error reply: {error!r}", None, method)
    code = error.get("code")
    code = code if isinstance(code, int) else -32603
    message = error.get("message")
    cls = _BY_CODE.get(code, RpcError)
    return cls(code, message if isinstance(message, str) else "unknown error", error.get("data"), method)
