"""JSON-RPC bookkeeping the blocking and asyncio clients share: the
``initialize`` params, request ids, and where each incoming message goes."""
from __future__ import annotations

from typing import Any, Callable, Sequence

CLIENT_NAME = "quarry-python"
# Code points first: they are Python's own string indices, so match ranges need no conversion.
DEFAULT_ENCODINGS = ("utf-32", "utf-8", "utf-16")

NotificationHandler = Callable[[str, Any], None]


def initialize_params(client_name: str, encodings: Sequence[str]) -> dict[str, Any]:
    return {"clientInfo": {"name": client_name},
            "capabilities": {"general": {"positionEncodings": list(encodings)}}}


def request(request_id: int, method: str, params: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def session_name(params: Any) -> str | None:
    """The session a notification is about, if it is about one."""
    value = params.get("session") if isinstance(params, dict) else None
    return value if isinstance(value, str) else None


def progress_token(params: Any) -> Any:
    return params.get("token") if isinstance(params, dict) else None


def remember_unclaimed(unclaimed: dict[str, dict[str, Any]], name: str, method: str, params: Any,
                       limit: int = 16) -> None:
    """Keeps the newest push of each kind for a session nobody follows yet, for a few sessions."""
    if method not in ("stateChanged", "resultsUpdated"):
        return
    if name not in unclaimed and len(unclaimed) >= limit:
        unclaimed.pop(next(iter(unclaimed)))
    unclaimed.setdefault(name, {})[method] = params
