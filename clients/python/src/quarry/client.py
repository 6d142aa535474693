"""The blocking client. A reader thread routes replies to the calls waiting
for them and session notifications to their sessions; callbacks run on one
dispatcher thread, so a callback may itself call the client."""
from __future__ import annotations

import os
import queue
import threading
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence, TypeVar

from . import calls, rpc, session_calls
from .calls import Call
from .daemon import connect_or_start, default_socket_path, open_socket, spawn_command
from .errors import CannotConnect, ConnectionLost, QuarryError, rpc_error
from .framing import Decoder, encode
from .session import Session
from .streams import PipeStream, SocketStream
from .types import (BrowsePage, FacetSearchResponse, ImportResult, IndexInfo, Progress, SearchResponse, ServerInfo,
                    SettingsResult, WriteResult)

T = TypeVar("T")
ProgressCallback = Callable[[Progress], None]


class Client:
    """One JSON-RPC connection to a Quarry daemon. Use ``Client.spawn()`` or
    ``Client.connect()``; close it (or use ``with``) to shut down cleanly."""

    def __init__(self, stream: PipeStream | SocketStream, *, client_name: str = rpc.CLIENT_NAME,
                 position_encodings: Sequence[str] = rpc.DEFAULT_ENCODINGS, timeout: Optional[float] = None) -> None:
        self._stream = stream
        self.timeout = timeout
        self._write_lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._next_id = 1
        self._pending: dict[int, queue.SimpleQueue[tuple[str, Any]]] = {}
        self._sessions: dict[str, list[Session]] = {}
        # The newest pushes for sessions no Session object follows yet (an
        # unnamed openSession learns its name only from the reply).
        self._unclaimed: dict[str, dict[str, Any]] = {}
        self._listeners: list[rpc.NotificationHandler] = []
        self._lost: Optional[str] = None
        self._closed = False
        self._callbacks: queue.SimpleQueue[Optional[Callable[[], None]]] = queue.SimpleQueue()
        self._dispatcher = threading.Thread(target=self._dispatch, name="quarry-callbacks", daemon=True)
        self._dispatcher.start()
        self._reader = threading.Thread(target=self._read, name="quarry-reader", daemon=True)
        self._reader.start()
        try:
            result = self.call("initialize", rpc.initialize_params(client_name, position_encodings))
            self.notify("initialized", {})
        except BaseException:
            self._teardown()
            raise
        self.server_info = ServerInfo.from_json(result)

    # Opening

    @classmethod
    def spawn(cls, *, binary: Optional[str] = None, data_dir: Optional[str | os.PathLike[str]] = None,
              args: Sequence[str] = (), stderr: Optional[int] = None, **options: Any) -> "Client":
        """A private daemon (``quarry serve``) on pipes; it exits when the client closes."""
        command = spawn_command(binary, os.fspath(data_dir) if data_dir else None, tuple(args))
        try:
            stream = PipeStream(command, stderr)
        except OSError as error:
            raise CannotConnect(f"could not start {command[0]}: {error}") from error
        return cls(stream, **options)

    @classmethod
    def connect(cls, path: Optional[str | os.PathLike[str]] = None, *, start: bool = True,
                binary: Optional[str] = None, data_dir: Optional[str | os.PathLike[str]] = None,
                **options: Any) -> "Client":
        """The shared daemon's socket (default: as ``quarry connect``), started if absent and ``start``."""
        socket_path = os.fspath(path) if path else default_socket_path()
        if start:
            sock = connect_or_start(socket_path, binary, os.fspath(data_dir) if data_dir else None)
        else:
            try:
                sock = open_socket(socket_path)
            except OSError as error:
                raise CannotConnect(f"no quarry daemon answers at {socket_path}: {error}") from error
        return cls(SocketStream(sock), **options)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def position_encoding(self) -> str:
        return self.server_info.position_encoding

    # Raw JSON-RPC

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
             progress: Optional[ProgressCallback] = None, timeout: Optional[float] = None) -> Any:
        """Sends a request and returns its ``result``; raises ``RpcError`` for an error reply."""
        return self.run(calls.raw(method, params), progress=progress, timeout=timeout)

    def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        self._send(rpc.notification(method, dict(params) if params is not None else None))

    def on_notification(self, handler: rpc.NotificationHandler) -> Callable[[], None]:
        """Calls ``handler(method, params)`` (on the callback thread) for every
        notification; returns a function that removes it."""
        with self._state_lock:
            self._listeners.append(handler)
        return lambda: self._remove_listener(handler)

    def run(self, call: Call[T], *, progress: Optional[ProgressCallback] = None,
            timeout: Optional[float] = None) -> T:
        """Runs one ``Call``. Progress callbacks run on this thread, before the result is returned."""
        inbox: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        with self._state_lock:
            if self._lost is not None:
                raise ConnectionLost(self._lost)
            request_id = self._next_id
            self._next_id += 1
            self._pending[request_id] = inbox
        try:
            self._send(rpc.request(request_id, call.method, call.params))
            limit = timeout if timeout is not None else self.timeout
            while True:
                try:
                    kind, value = inbox.get(timeout=limit)
                except queue.Empty:
                    self.notify("$/cancelRequest", {"id": request_id})
                    raise TimeoutError(f"no reply to {call.method} within {limit} s") from None
                if kind == "progress":
                    if progress is not None:
                        progress(Progress.from_json(value))
                elif kind == "lost":
                    raise ConnectionLost(value)
                elif "error" in value:
                    raise rpc_error(value["error"], call.method)
                else:
                    return call.parse(value.get("result"))
        except KeyboardInterrupt:
            self._cancel_quietly(request_id)
            raise
        finally:
            with self._state_lock:
                self._pending.pop(request_id, None)

    # Index helpers

    def save_objects(self, index: str, objects: Iterable[Mapping[str, Any]]) -> WriteResult:
        return self.run(calls.save_objects(index, objects))

    def partial_update_objects(self, index: str, objects: Iterable[Mapping[str, Any]],
                               create_if_not_exists: bool = True) -> WriteResult:
        return self.run(calls.partial_update_objects(index, objects, create_if_not_exists))

    def delete_objects(self, index: str, object_ids: Iterable[str]) -> WriteResult:
        return self.run(calls.delete_objects(index, object_ids))

    def clear_objects(self, index: str) -> WriteResult:
        return self.run(calls.clear_objects(index))

    def delete_index(self, index: str) -> WriteResult:
        return self.run(calls.delete_index(index))

    def list_indices(self, memory: bool = False) -> list[IndexInfo]:
        """Every index; with ``memory``, each with its memory breakdown."""
        return self.run(calls.list_indices(memory))

    def get_objects(self, index: str, object_ids: Iterable[str], *,
                    attributes_to_retrieve: Optional[Iterable[str]] = None) -> list[Optional[dict[str, Any]]]:
        """Records by objectID, in the order asked; ``None`` for an id with no record."""
        return self.run(calls.get_objects(index, object_ids, attributes_to_retrieve))

    def browse(self, index: str, cursor: Optional[str] = None, **params: Any) -> BrowsePage:
        """One page of every record matching ``query``/``filters`` (not capped by ``paginationLimitedTo``)."""
        return self.run(calls.browse(index, cursor, params))

    def browse_objects(self, index: str, **params: Any) -> Iterator[dict[str, Any]]:
        """Every matching record, in the order ties rank (the order records were first saved),
        fetched a page at a time as the iteration needs them."""
        page = self.browse(index, **params)
        while True:
            yield from page.hits
            if page.cursor is None:
                return
            page = self.browse(index, page.cursor)

    def get_settings(self, index: str) -> dict[str, Any]:
        return self.run(calls.get_settings(index))

    def set_settings(self, index: str, settings: Mapping[str, Any]) -> SettingsResult:
        return self.run(calls.set_settings(index, settings))

    def import_file(self, index: str, path: str | os.PathLike[str], *, format: Optional[str] = None,
                    settings: Optional[Mapping[str, Any]] = None, skip_invalid: bool = False,
                    progress: Optional[ProgressCallback] = None) -> ImportResult:
        return self.run(calls.import_file(index, path, format, settings, skip_invalid), progress=progress)

    def search(self, index: str, query: str = "", **params: Any) -> SearchResponse:
        """One search; keyword params take Algolia's names in either case (``hits_per_page=5``)."""
        return self.run(calls.search(index, query, params))

    def search_for_facet_values(self, index: str, facet_name: str, facet_query: str = "",
                                **params: Any) -> FacetSearchResponse:
        return self.run(calls.search_for_facet_values(index, facet_name, facet_query, params))

    # Sessions

    def open_session(self, name: Optional[str] = None, *,
                     searchers: Optional[Sequence[Mapping[str, Any]]] = None) -> Session:
        """Attaches to the session ``name``, creating it (with ``searchers``, see
        ``hits_searcher``) if it does not exist; without a name, creates a new one."""
        session = Session(self, name) if name is not None else None
        if session is not None:
            self._attach(session)
        try:
            opened = self.run(session_calls.open_session(name, searchers))
        except BaseException:
            if session is not None:
                self._detach(session)
            raise
        if session is None:
            session = Session(self, str(opened.get("session", "")))
            self._attach(session)
        session.start(opened)
        with self._state_lock:
            missed = self._unclaimed.pop(session.name, {})
        for method, params in missed.items():
            session.receive(method, params)
        return session

    def list_sessions(self) -> Any:
        return self.run(session_calls.list_sessions())

    # Closing

    def close(self) -> None:
        """``shutdown`` and ``exit``, then closes the connection (and waits for a spawned daemon)."""
        if self._closed:
            return
        if self._lost is None:
            try:
                self.call("shutdown", timeout=5)
                self.notify("exit")
            except (QuarryError, OSError, TimeoutError):
                pass
        self._teardown()

    def _teardown(self) -> None:
        self._closed = True
        self._stream.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(5)
        self._callbacks.put(None)
        if threading.current_thread() is not self._dispatcher:
            self._dispatcher.join(5)

    # Plumbing

    def _send(self, message: dict[str, Any]) -> None:
        data = encode(message)
        try:
            with self._write_lock:
                self._stream.write(data)
        except OSError as error:
            raise ConnectionLost(self._lost or f"cannot write to the daemon: {error}") from error

    def _cancel_quietly(self, request_id: int) -> None:
        try:
            self.notify("$/cancelRequest", {"id": request_id})
        except QuarryError:
            pass

    def _read(self) -> None:
        decoder = Decoder()
        reason = "the daemon closed the connection"
        try:
            while True:
                data = self._stream.read()
                if not data:
                    break
                for message in decoder.feed(data):
                    self._route(message)
        except (OSError, QuarryError) as error:
            reason = f"lost the connection to the daemon: {error}"
        with self._state_lock:
            self._lost = reason
            waiting = list(self._pending.values())
            sessions = [session for group in self._sessions.values() for session in group]
        for inbox in waiting:
            inbox.put(("lost", reason))
        for session in sessions:
            session.connection_lost(reason)

    def _route(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if isinstance(method, str):
            params = message.get("params")
            if method == "$/progress":
                token = rpc.progress_token(params)
                with self._state_lock:
                    inbox = self._pending.get(token) if isinstance(token, int) else None
                if inbox is not None and isinstance(params, dict):
                    inbox.put(("progress", params.get("value") or {}))
                    return
            name = rpc.session_name(params)
            with self._state_lock:
                sessions = list(self._sessions.get(name, ())) if name else []
                listeners = list(self._listeners)
                if name and not sessions:
                    rpc.remember_unclaimed(self._unclaimed, name, method, params)
            for session in sessions:
                session.receive(method, params)
            for listener in listeners:
                self.later(partial(listener, method, params))
            return
        request_id = message.get("id")
        with self._state_lock:
            inbox = self._pending.get(request_id) if isinstance(request_id, int) else None
        if inbox is not None:
            inbox.put(("reply", message))

    def later(self, work: Callable[[], None]) -> None:
        """Runs ``work`` on the callback thread, after earlier callbacks."""
        self._callbacks.put(work)

    def _dispatch(self) -> None:
        while True:
            work = self._callbacks.get()
            if work is None:
                return
            try:
                work()
            except Exception:  # a failing callback must not stop the others
                import traceback
                traceback.print_exc()

    def _attach(self, session: Session) -> None:
        with self._state_lock:
            self._sessions.setdefault(session.name, []).append(session)

    def _detach(self, session: Session) -> None:
        with self._state_lock:
            group = self._sessions.get(session.name, [])
            if session in group:
                group.remove(session)
            if not group:
                self._sessions.pop(session.name, None)

    def _remove_listener(self, handler: rpc.NotificationHandler) -> None:
        with self._state_lock:
            if handler in self._listeners:
                self._listeners.remove(handler)
