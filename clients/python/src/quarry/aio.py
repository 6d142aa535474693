"""The asyncio client: the blocking client's API with ``await``. One reader
task routes replies to their futures and pushes to their sessions."""
from __future__ import annotations

import asyncio
import inspect
import os
from typing import Any, AsyncIterator, Awaitable, Callable, Generator, Generic, Iterable, Mapping, Optional, Sequence, TypeVar

from . import calls, rpc, session_calls
from .calls import Call
from .daemon import connect_or_start, default_socket_path, open_socket, spawn_command
from .errors import CannotConnect, ConnectionLost, QuarryError, rpc_error
from .framing import Decoder, encode
from .session_async import AsyncSession
from .types import (BrowsePage, FacetSearchResponse, ImportResult, IndexInfo, Progress, SearchResponse, ServerInfo,
                    SettingsResult, WriteResult)

T = TypeVar("T")
C = TypeVar("C")
ProgressCallback = Callable[[Progress], Any]


class _Opening(Generic[C]):
    """What ``spawn``/``connect`` return: await it, or use it with ``async with``."""

    def __init__(self, opening: Callable[[], Awaitable[C]]) -> None:
        self._opening = opening
        self._client: Optional[C] = None

    def __await__(self) -> Generator[Any, None, C]:
        return self._opening().__await__()

    async def __aenter__(self) -> C:
        self._client = await self._opening()
        return self._client

    async def __aexit__(self, *exc_info: object) -> None:
        if self._client is not None:
            await self._client.close()  # type: ignore[attr-defined]


class AsyncClient:
    """One JSON-RPC connection to a Quarry daemon, for asyncio programs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 process: Optional[asyncio.subprocess.Process] = None, timeout: Optional[float] = None) -> None:
        self._reader = reader
        self._writer = writer
        self._process = process
        self.timeout = timeout
        self._next_id = 1
        self._pending: dict[int, asyncio.Queue[tuple[str, Any]]] = {}
        self._sessions: dict[str, list[AsyncSession]] = {}
        self._unclaimed: dict[str, dict[str, Any]] = {}
        self._listeners: list[rpc.NotificationHandler] = []
        self._lost: Optional[str] = None
        self._closed = False
        self._reading: Optional[asyncio.Task[None]] = None
        self.server_info: ServerInfo

    async def _start(self, client_name: str, encodings: Sequence[str]) -> "AsyncClient":
        self._reading = asyncio.get_running_loop().create_task(self._read())
        try:
            result = await self.call("initialize", rpc.initialize_params(client_name, encodings))
            await self.notify("initialized", {})
        except BaseException:
            await self._teardown()
            raise
        self.server_info = ServerInfo.from_json(result)
        return self

    # Opening

    @classmethod
    def spawn(cls, *, binary: Optional[str] = None, data_dir: Optional[str | os.PathLike[str]] = None,
              args: Sequence[str] = (), stderr: Optional[int] = None, client_name: str = rpc.CLIENT_NAME,
              position_encodings: Sequence[str] = rpc.DEFAULT_ENCODINGS,
              timeout: Optional[float] = None) -> _Opening["AsyncClient"]:
        """A private daemon (``quarry serve``) on pipes; it exits when the client closes."""
        async def opening() -> AsyncClient:
            command = spawn_command(binary, os.fspath(data_dir) if data_dir else None, tuple(args))
            try:
                process = await asyncio.create_subprocess_exec(
                    *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr)
            except OSError as error:
                raise CannotConnect(f"could not start {command[0]}: {error}") from error
            assert process.stdout is not None and process.stdin is not None
            client = cls(process.stdout, process.stdin, process, timeout)
            return await client._start(client_name, position_encodings)
        return _Opening(opening)

    @classmethod
    def connect(cls, path: Optional[str | os.PathLike[str]] = None, *, start: bool = True,
                binary: Optional[str] = None, data_dir: Optional[str | os.PathLike[str]] = None,
                client_name: str = rpc.CLIENT_NAME, position_encodings: Sequence[str] = rpc.DEFAULT_ENCODINGS,
                timeout: Optional[float] = None) -> _Opening["AsyncClient"]:
        """The shared daemon's socket (default: as ``quarry connect``), started if absent and ``start``."""
        async def opening() -> AsyncClient:
            socket_path = os.fspath(path) if path else default_socket_path()
            if start:
                sock = await asyncio.to_thread(connect_or_start, socket_path, binary,
                                               os.fspath(data_dir) if data_dir else None)
            else:
                try:
                    sock = open_socket(socket_path)
                except OSError as error:
                    raise CannotConnect(f"no quarry daemon answers at {socket_path}: {error}") from error
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=1 << 24)
            return await cls(reader, writer, None, timeout)._start(client_name, position_encodings)
        return _Opening(opening)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def position_encoding(self) -> str:
        return self.server_info.position_encoding

    # Raw JSON-RPC

    async def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                   progress: Optional[ProgressCallback] = None, timeout: Optional[float] = None) -> Any:
        return await self.run(calls.raw(method, params), progress=progress, timeout=timeout)

    async def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        await self._send(rpc.notification(method, dict(params) if params is not None else None))

    def on_notification(self, handler: rpc.NotificationHandler) -> Callable[[], None]:
        self._listeners.append(handler)
        return lambda: self._listeners.remove(handler) if handler in self._listeners else None

    async def run(self, call: Call[T], *, progress: Optional[ProgressCallback] = None,
                  timeout: Optional[float] = None) -> T:
        """Runs one ``Call``; cancelling the awaiting task sends ``$/cancelRequest``."""
        if self._lost is not None:
            raise ConnectionLost(self._lost)
        request_id = self._next_id
        self._next_id += 1
        inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._pending[request_id] = inbox
        try:
            await self._send(rpc.request(request_id, call.method, call.params))
            limit = timeout if timeout is not None else self.timeout
            while True:
                try:
                    kind, value = await asyncio.wait_for(inbox.get(), limit)
                except asyncio.TimeoutError:
                    await self._cancel_quietly(request_id)
                    raise TimeoutError(f"no reply to {call.method} within {limit} s") from None
                if kind == "progress":
                    if progress is not None:
                        outcome = progress(Progress.from_json(value))
                        if inspect.isawaitable(outcome):
                            await outcome
                elif kind == "lost":
                    raise ConnectionLost(value)
                elif "error" in value:
                    raise rpc_error(value["error"], call.method)
                else:
                    return call.parse(value.get("result"))
        except asyncio.CancelledError:
            await self._cancel_quietly(request_id)
            raise
        finally:
            self._pending.pop(request_id, None)

    # Index helpers

    async def save_objects(self, index: str, objects: Iterable[Mapping[str, Any]]) -> WriteResult:
        return await self.run(calls.save_objects(index, objects))

    async def partial_update_objects(self, index: str, objects: Iterable[Mapping[str, Any]],
                                     create_if_not_exists: bool = True) -> WriteResult:
        return await self.run(calls.partial_update_objects(index, objects, create_if_not_exists))

    async def delete_objects(self, index: str, object_ids: Iterable[str]) -> WriteResult:
        return await self.run(calls.delete_objects(index, object_ids))

    async def clear_objects(self, index: str) -> WriteResult:
        return await self.run(calls.clear_objects(index))

    async def delete_index(self, index: str) -> WriteResult:
        return await self.run(calls.delete_index(index))

    async def list_indices(self, memory: bool = False) -> list[IndexInfo]:
        return await self.run(calls.list_indices(memory))

    async def get_objects(self, index: str, object_ids: Iterable[str], *,
                          attributes_to_retrieve: Optional[Iterable[str]] = None) -> list[Optional[dict[str, Any]]]:
        """Records by objectID, in the order asked; ``None`` for an id with no record."""
        return await self.run(calls.get_objects(index, object_ids, attributes_to_retrieve))

    async def browse(self, index: str, cursor: Optional[str] = None, **params: Any) -> BrowsePage:
        """One page of every record matching ``query``/``filters`` (not capped by ``paginationLimitedTo``)."""
        return await self.run(calls.browse(index, cursor, params))

    async def browse_objects(self, index: str, **params: Any) -> AsyncIterator[dict[str, Any]]:
        """Every matching record, in the order ties rank (the order records were first saved),
        fetched a page at a time as the iteration needs them."""
        page = await self.browse(index, **params)
        while True:
            for hit in page.hits:
                yield hit
            if page.cursor is None:
                return
            page = await self.browse(index, page.cursor)

    async def get_settings(self, index: str) -> dict[str, Any]:
        return await self.run(calls.get_settings(index))

    async def set_settings(self, index: str, settings: Mapping[str, Any]) -> SettingsResult:
        return await self.run(calls.set_settings(index, settings))

    async def import_file(self, index: str, path: str | os.PathLike[str], *, format: Optional[str] = None,
                          settings: Optional[Mapping[str, Any]] = None, skip_invalid: bool = False,
                          progress: Optional[ProgressCallback] = None) -> ImportResult:
        return await self.run(calls.import_file(index, path, format, settings, skip_invalid), progress=progress)

    async def search(self, index: str, query: str = "", **params: Any) -> SearchResponse:
        return await self.run(calls.search(index, query, params))

    async def search_for_facet_values(self, index: str, facet_name: str, facet_query: str = "",
                                      **params: Any) -> FacetSearchResponse:
        return await self.run(calls.search_for_facet_values(index, facet_name, facet_query, params))

    # Sessions

    async def open_session(self, name: Optional[str] = None, *,
                           searchers: Optional[Sequence[Mapping[str, Any]]] = None) -> AsyncSession:
        session = AsyncSession(self, name) if name is not None else None
        if session is not None:
            self._sessions.setdefault(session.name, []).append(session)
        try:
            opened = await self.run(session_calls.open_session(name, searchers))
        except BaseException:
            if session is not None:
                self._detach(session)
            raise
        if session is None:
            session = AsyncSession(self, str(opened.get("session", "")))
            self._sessions.setdefault(session.name, []).append(session)
        session.start(opened)
        for method, params in self._unclaimed.pop(session.name, {}).items():
            session.receive(method, params)
        return session

    async def list_sessions(self) -> Any:
        return await self.run(session_calls.list_sessions())

    # Closing

    async def close(self) -> None:
        if self._closed:
            return
        if self._lost is None:
            try:
                await self.call("shutdown", timeout=5)
                await self.notify("exit")
            except (QuarryError, OSError, TimeoutError):
                pass
        await self._teardown()

    async def _teardown(self) -> None:
        self._closed = True
        try:
            self._writer.close()
            await self._writer.wait_closed()
        except OSError:
            pass
        if self._process is not None:
            try:
                await asyncio.wait_for(self._process.wait(), 5)
            except asyncio.TimeoutError:
                self._process.kill()
                await self._process.wait()
        if self._reading is not None and self._reading is not asyncio.current_task():
            self._reading.cancel()
            try:
                await self._reading
            except asyncio.CancelledError:
                pass

    # Plumbing

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            self._writer.write(encode(message))
            await self._writer.drain()
        except (OSError, RuntimeError) as error:
            raise ConnectionLost(self._lost or f"cannot write to the daemon: {error}") from error

    async def _cancel_quietly(self, request_id: int) -> None:
        try:
            await self.notify("$/cancelRequest", {"id": request_id})
        except QuarryError:
            pass

    async def _read(self) -> None:
        decoder = Decoder()
        reason = "the daemon closed the connection"
        try:
            while True:
                data = await self._reader.read(1 << 16)
                if not data:
                    break
                for message in decoder.feed(data):
                    self._route(message)
        except (OSError, QuarryError) as error:
            reason = f"lost the connection to the daemon: {error}"
        finally:
            self._lost = reason
            for inbox in self._pending.values():
                inbox.put_nowait(("lost", reason))
            for group in list(self._sessions.values()):
                for session in group:
                    session.connection_lost(reason)

    def _route(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if isinstance(method, str):
            params = message.get("params")
            if method == "$/progress":
                token = rpc.progress_token(params)
                inbox = self._pending.get(token) if isinstance(token, int) else None
                if inbox is not None and isinstance(params, dict):
                    inbox.put_nowait(("progress", params.get("value") or {}))
                    return
            name = rpc.session_name(params)
            sessions = list(self._sessions.get(name, ())) if name else []
            for session in sessions:
                session.receive(method, params)
            if name and not sessions:
                rpc.remember_unclaimed(self._unclaimed, name, method, params)
            for listener in list(self._listeners):
                self.invoke(listener, method, params)
            return
        request_id = message.get("id")
        inbox = self._pending.get(request_id) if isinstance(request_id, int) else None
        if inbox is not None:
            inbox.put_nowait(("reply", message))

    @staticmethod
    def invoke(callback: Callable[..., Any], *args: Any) -> None:
        """Calls a callback; a coroutine it returns runs as its own task."""
        outcome = callback(*args)
        if inspect.isawaitable(outcome):
            asyncio.ensure_future(outcome)

    def _detach(self, session: AsyncSession) -> None:
        group = self._sessions.get(session.name, [])
        if session in group:
            group.remove(session)
        if not group:
            self._sessions.pop(session.name, None)
