"""``Session`` for asyncio: the same methods, awaited, and ``async for`` over its pushes."""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Mapping, Optional, Sequence

from . import session_calls as sc
from .errors import ConnectionLost
from .session import Event, SessionTracker, Versioned, _newest, first_hits_searcher
from .session_calls import ResultsUpdate, SearcherResult, StateChanged

if TYPE_CHECKING:
    from .aio import AsyncClient


class AsyncSession:
    """A session opened with ``AsyncClient.open_session``."""

    def __init__(self, client: "AsyncClient", name: str) -> None:
        self.client = client
        self.name = name
        self._tracker = SessionTracker(name)
        self._changed = asyncio.Condition()
        self._subscribers: list[asyncio.Queue[Optional[Event]]] = []
        self._result_callbacks: list[Callable[[ResultsUpdate], Any]] = []
        self._state_callbacks: list[Callable[[StateChanged], Any]] = []
        self._lost: Optional[str] = None
        self._closed = False

    @property
    def state(self) -> Optional[StateChanged]:
        return self._tracker.state

    @property
    def results(self) -> Optional[ResultsUpdate]:
        return self._tracker.results

    @property
    def state_version(self) -> int:
        return self._tracker.state_version

    def on_results(self, callback: Callable[[ResultsUpdate], Any]) -> None:
        """Calls ``callback`` with every ``resultsUpdated``; a coroutine it returns runs as a task."""
        self._result_callbacks.append(callback)

    def on_state(self, callback: Callable[[StateChanged], Any]) -> None:
        self._state_callbacks.append(callback)

    def updates(self, *, timeout: Optional[float] = None) -> "AsyncResultsSubscription":
        """Every ``resultsUpdated`` from this call on (``async for``)."""
        return AsyncResultsSubscription(self, timeout)

    def events(self, *, timeout: Optional[float] = None) -> "AsyncSubscription":
        """Every ``stateChanged`` and ``resultsUpdated`` from this call on (``async for``)."""
        return AsyncSubscription(self, timeout)

    async def wait_results(self, min_version: Optional[int] = None, timeout: Optional[float] = 10.0, *,
                           exact: bool = False) -> ResultsUpdate:
        return await self._wait(lambda: _newest(self._tracker.results, exact), min_version, timeout)

    async def wait_state(self, min_version: int, timeout: Optional[float] = 10.0) -> StateChanged:
        return await self._wait(lambda: self._tracker.state, min_version, timeout)

    @property
    def searchers(self) -> list[str]:
        return [str(item.get("searcher")) for item in (self.state.searchers if self.state else [])]

    def hits_searcher(self, searcher: Optional[str] = None) -> str:
        return searcher if searcher is not None else first_hits_searcher(self.state, self.name)

    async def add_hits_searcher(self, index: str, **params: Any) -> str:
        return await self.client.run(sc.add_hits_searcher(self.name, index, params))

    async def add_facets_searcher(self, index: str, attribute: str) -> str:
        return await self.client.run(sc.add_facets_searcher(self.name, index, attribute))

    async def remove_searcher(self, searcher: str) -> int:
        return await self.client.run(sc.remove_searcher(self.name, searcher))

    async def set_query(self, query: str) -> int:
        return await self.client.run(sc.set_query(self.name, query))

    async def toggle_filter(self, filter: Mapping[str, Any], *, group: Optional[str] = None, operator: str = "or",
                            selection_mode: Optional[str] = None,
                            items: Optional[Sequence[Mapping[str, Any]]] = None) -> int:
        return await self.client.run(sc.toggle_filter(self.name, filter, group, operator, selection_mode, items))

    async def set_filters(self, filters: Sequence[Mapping[str, Any]], *, group: str, operator: str = "and") -> int:
        return await self.client.run(sc.set_filters(self.name, filters, group, operator))

    async def clear_filters(self, groups: Optional[Sequence[Any]] = None, *,
                            except_: Optional[Sequence[Any]] = None) -> int:
        return await self.client.run(sc.clear_filters(self.name, groups, except_))

    async def set_hierarchical_filter(self, attributes: Sequence[str], path: Optional[str], *,
                                      separator: Optional[str] = None, name: Optional[str] = None) -> int:
        return await self.client.run(sc.set_hierarchical_filter(self.name, attributes, path, separator, name))

    async def toggle_relevant_sort(self, searcher: Optional[str] = None) -> int:
        return await self.client.run(sc.toggle_relevant_sort(self.name, self.hits_searcher(searcher)))

    async def set_index(self, index: str, searcher: Optional[str] = None) -> int:
        return await self.client.run(sc.set_index(self.name, self.hits_searcher(searcher), index))

    async def load_page(self, page: int, searcher: Optional[str] = None,
                        state_version: Optional[int] = None) -> SearcherResult:
        version = state_version if state_version is not None else self._tracker.state_version
        return await self.client.run(sc.load_page(self.name, self.hits_searcher(searcher), page, version))

    async def get_state(self) -> StateChanged:
        return await self.client.run(sc.get_state(self.name))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if self._lost is None:
                await self.client.run(sc.close_session(self.name))
        finally:
            self.client._detach(self)
            self._finish()

    async def __aenter__(self) -> "AsyncSession":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # Fed by the client's reader task

    def start(self, opened: Any) -> None:
        self._tracker.start(opened)

    def receive(self, method: str, params: Any) -> None:
        event = self._tracker.observe(method, params)
        if event is None:
            return
        for inbox in self._subscribers:
            inbox.put_nowait(event)
        self._notify_waiters()
        if isinstance(event, ResultsUpdate):
            for callback in list(self._result_callbacks):
                self.client.invoke(callback, event)
        else:
            for state_callback in list(self._state_callbacks):
                self.client.invoke(state_callback, event)

    def connection_lost(self, reason: str) -> None:
        self._lost = reason
        self._finish()

    def _subscribe(self, inbox: "asyncio.Queue[Optional[Event]]") -> None:
        self._subscribers.append(inbox)
        if self._closed or self._lost is not None:
            inbox.put_nowait(None)

    def _unsubscribe(self, inbox: "asyncio.Queue[Optional[Event]]") -> None:
        if inbox in self._subscribers:
            self._subscribers.remove(inbox)

    def _finish(self) -> None:
        for inbox in self._subscribers:
            inbox.put_nowait(None)
        self._notify_waiters()

    def _notify_waiters(self) -> None:
        async def wake() -> None:
            async with self._changed:
                self._changed.notify_all()
        asyncio.ensure_future(wake())

    async def _wait(self, latest: Callable[[], Optional[Versioned]], min_version: Optional[int],
                    timeout: Optional[float]) -> Versioned:
        target = min_version if min_version is not None else self._tracker.state_version

        def ready() -> bool:
            value = latest()
            return (value is not None and value.state_version >= target) or self._lost is not None

        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
            except asyncio.TimeoutError:
                raise TimeoutError(f"session {self.name!r} reached no version {target} within {timeout} s") from None
        value = latest()
        if value is not None and value.state_version >= target:
            return value
        raise ConnectionLost(self._lost or "the connection closed")


class AsyncSubscription:
    """``async for`` over a session's pushes, subscribed when it is created."""

    def __init__(self, session: AsyncSession, timeout: Optional[float]) -> None:
        self._session = session
        self._timeout = timeout
        self._inbox: asyncio.Queue[Optional[Event]] = asyncio.Queue()
        self._done = False
        session._subscribe(self._inbox)

    def __aiter__(self) -> "AsyncSubscription":
        return self

    async def __anext__(self) -> Event:
        if self._done:
            raise StopAsyncIteration
        try:
            event = await asyncio.wait_for(self._inbox.get(), self._timeout)
        except asyncio.TimeoutError:
            event = None
        if event is None:
            self.close()
            raise StopAsyncIteration
        return event

    def close(self) -> None:
        self._done = True
        self._session._unsubscribe(self._inbox)

    def __del__(self) -> None:
        self._session._unsubscribe(self._inbox)


class AsyncResultsSubscription:
    """An ``AsyncSubscription`` that yields only ``resultsUpdated``."""

    def __init__(self, session: AsyncSession, timeout: Optional[float]) -> None:
        self._events = AsyncSubscription(session, timeout)

    def __aiter__(self) -> "AsyncResultsSubscription":
        return self

    async def __anext__(self) -> ResultsUpdate:
        while True:
            event = await self._events.__anext__()
            if isinstance(event, ResultsUpdate):
                return event

    def close(self) -> None:
        self._events.close()
