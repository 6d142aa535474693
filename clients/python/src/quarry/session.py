"""A shared search session as one client sees it: the calls that change it,
and the newest state and results pushed for it (callbacks and an iterator)."""
from __future__ import annotations

import queue
import threading
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional, Sequence, TypeVar, Union

from . import session_calls as sc
from .errors import ConnectionLost
from .session_calls import ResultsUpdate, SearcherResult, StateChanged

if TYPE_CHECKING:
    from .client import Client

Event = Union[StateChanged, ResultsUpdate]
Versioned = TypeVar("Versioned", StateChanged, ResultsUpdate)


def first_hits_searcher(state: Optional[StateChanged], name: str) -> str:
    for item in state.searchers if state else []:
        if item.get("type") == "hits":
            return str(item.get("searcher"))
    raise LookupError(f"session {name!r} has no hits searcher")


def _newest(results: Optional[ResultsUpdate], exact: bool) -> Optional[ResultsUpdate]:
    """``results``, or with ``exact`` only when they hold no estimate."""
    return results if results is not None and (results.exhaustive or not exact) else None


class SessionTracker:
    """The newest state and results of a session, from its notifications.
    A push older than one already seen is dropped (the server never sends
    one, but a reply's version may race ahead of its pushes)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.state: Optional[StateChanged] = None
        self.results: Optional[ResultsUpdate] = None

    @property
    def state_version(self) -> int:
        return self.state.state_version if self.state else 0

    def start(self, opened: Any) -> None:
        if isinstance(opened, dict) and isinstance(opened.get("state"), dict):
            self.observe("stateChanged", {**opened, "session": self.name})
        if isinstance(opened, dict) and isinstance(opened.get("results"), list):
            self.observe("resultsUpdated", {**opened, "session": self.name})

    def observe(self, method: str, params: Any) -> Optional[Event]:
        if not isinstance(params, dict):
            return None
        if method == "stateChanged":
            state = StateChanged.from_json(params)
            if self.state and state.state_version < self.state.state_version:
                return None
            self.state = state
            return state
        if method == "resultsUpdated":
            results = ResultsUpdate.from_json(params)
            if self.results and results.state_version < self.results.state_version:
                return None
            self.results = results
            return results
        return None


class Session:
    """A session opened with ``Client.open_session``. Every method that
    changes it returns the resulting state version; its results arrive later
    through ``on_results``, ``updates()`` or ``wait_results()``."""

    def __init__(self, client: "Client", name: str) -> None:
        self.client = client
        self.name = name
        self._tracker = SessionTracker(name)
        self._changed = threading.Condition()
        self._subscribers: list[queue.SimpleQueue[Optional[Event]]] = []
        self._result_callbacks: list[Callable[[ResultsUpdate], None]] = []
        self._state_callbacks: list[Callable[[StateChanged], None]] = []
        self._lost: Optional[str] = None
        self._closed = False

    # Reading

    @property
    def state(self) -> Optional[StateChanged]:
        return self._tracker.state

    @property
    def results(self) -> Optional[ResultsUpdate]:
        return self._tracker.results

    @property
    def state_version(self) -> int:
        return self._tracker.state_version

    def on_results(self, callback: Callable[[ResultsUpdate], None]) -> None:
        """Calls ``callback`` (on the client's callback thread) with every ``resultsUpdated``."""
        self._result_callbacks.append(callback)

    def on_state(self, callback: Callable[[StateChanged], None]) -> None:
        self._state_callbacks.append(callback)

    def updates(self, *, timeout: Optional[float] = None) -> "ResultsSubscription":
        """Every ``resultsUpdated`` from this call on, in order; ends when the
        session or connection closes, or after ``timeout`` seconds without one."""
        return ResultsSubscription(self, timeout)

    def events(self, *, timeout: Optional[float] = None) -> "Subscription":
        """Every ``stateChanged`` and ``resultsUpdated`` from this call on, in order."""
        return Subscription(self, timeout)

    def wait_results(self, min_version: Optional[int] = None, timeout: Optional[float] = 10.0, *,
                     exact: bool = False) -> ResultsUpdate:
        """The newest results once they cover ``min_version`` (default: the current state version);
        with ``exact``, once they also hold no estimate (``ResultsUpdate.exhaustive``)."""
        return self._wait(lambda: _newest(self._tracker.results, exact), min_version, timeout)

    def wait_state(self, min_version: int, timeout: Optional[float] = 10.0) -> StateChanged:
        return self._wait(lambda: self._tracker.state, min_version, timeout)

    @property
    def searchers(self) -> list[str]:
        """The ids of the session's searchers, in order (from the newest state)."""
        return [str(item.get("searcher")) for item in (self.state.searchers if self.state else [])]

    def hits_searcher(self, searcher: Optional[str] = None) -> str:
        """``searcher``, else the session's first hits searcher."""
        return searcher if searcher is not None else first_hits_searcher(self.state, self.name)

    # Changing (each returns the session's state version after the change)

    def add_hits_searcher(self, index: str, **params: Any) -> str:
        """Adds a hits searcher over ``index`` (``hits_per_page=…``, ``facets=[…]``); returns its id."""
        return self.client.run(sc.add_hits_searcher(self.name, index, params))

    def add_facets_searcher(self, index: str, attribute: str) -> str:
        """Adds a searcher of ``attribute``'s values that match the query; returns its id."""
        return self.client.run(sc.add_facets_searcher(self.name, index, attribute))

    def remove_searcher(self, searcher: str) -> int:
        return self.client.run(sc.remove_searcher(self.name, searcher))

    def set_query(self, query: str) -> int:
        return self.client.run(sc.set_query(self.name, query))

    def toggle_filter(self, filter: Mapping[str, Any], *, group: Optional[str] = None, operator: str = "or",
                      selection_mode: Optional[str] = None, items: Optional[Sequence[Mapping[str, Any]]] = None) -> int:
        """Adds ``filter`` (see ``facet_filter``) to the group (default: named after its
        attribute), or removes it if it is there."""
        return self.client.run(sc.toggle_filter(self.name, filter, group, operator, selection_mode, items))

    def set_filters(self, filters: Sequence[Mapping[str, Any]], *, group: str, operator: str = "and") -> int:
        return self.client.run(sc.set_filters(self.name, filters, group, operator))

    def clear_filters(self, groups: Optional[Sequence[Any]] = None, *, except_: Optional[Sequence[Any]] = None) -> int:
        """Clears every group, the ``groups`` named, or all but ``except_``."""
        return self.client.run(sc.clear_filters(self.name, groups, except_))

    def set_hierarchical_filter(self, attributes: Sequence[str], path: Optional[str], *,
                                separator: Optional[str] = None, name: Optional[str] = None) -> int:
        return self.client.run(sc.set_hierarchical_filter(self.name, attributes, path, separator, name))

    def toggle_relevant_sort(self, searcher: Optional[str] = None) -> int:
        """Switches a hits searcher on a virtual replica between relevant and all hits."""
        return self.client.run(sc.toggle_relevant_sort(self.name, self.hits_searcher(searcher)))

    def set_index(self, index: str, searcher: Optional[str] = None) -> int:
        """Points a hits searcher at another index (a sort-by replica)."""
        return self.client.run(sc.set_index(self.name, self.hits_searcher(searcher), index))

    def load_page(self, page: int, searcher: Optional[str] = None,
                  state_version: Optional[int] = None) -> SearcherResult:
        """A further page for the version shown; ``ContentModified`` if the session moved on."""
        version = state_version if state_version is not None else self._tracker.state_version
        return self.client.run(sc.load_page(self.name, self.hits_searcher(searcher), page, version))

    def get_state(self) -> StateChanged:
        return self.client.run(sc.get_state(self.name))

    def close(self) -> None:
        """Detaches this client from the session; other frontends keep it."""
        if self._closed:
            return
        self._closed = True
        try:
            if self._lost is None:
                self.client.run(sc.close_session(self.name))
        finally:
            self.client._detach(self)
            self._finish()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Fed by the client

    def start(self, opened: Any) -> None:
        with self._changed:
            self._tracker.start(opened)
            self._changed.notify_all()

    def receive(self, method: str, params: Any) -> None:
        with self._changed:
            event = self._tracker.observe(method, params)
            if event is None:
                return
            for inbox in self._subscribers:
                inbox.put(event)
            self._changed.notify_all()
        if isinstance(event, ResultsUpdate):
            for callback in list(self._result_callbacks):
                self.client.later(partial(callback, event))
        else:
            for state_callback in list(self._state_callbacks):
                self.client.later(partial(state_callback, event))

    def connection_lost(self, reason: str) -> None:
        self._lost = reason
        self._finish()

    def _subscribe(self, inbox: "queue.SimpleQueue[Optional[Event]]") -> None:
        with self._changed:
            self._subscribers.append(inbox)
            if self._closed or self._lost is not None:
                inbox.put(None)

    def _unsubscribe(self, inbox: "queue.SimpleQueue[Optional[Event]]") -> None:
        with self._changed:
            if inbox in self._subscribers:
                self._subscribers.remove(inbox)

    def _finish(self) -> None:
        with self._changed:
            for inbox in self._subscribers:
                inbox.put(None)
            self._changed.notify_all()

    def _wait(self, latest: Callable[[], Optional[Versioned]], min_version: Optional[int],
              timeout: Optional[float]) -> Versioned:
        with self._changed:
            target = min_version if min_version is not None else self._tracker.state_version

            def reached() -> bool:
                value = latest()
                return value is not None and value.state_version >= target

            self._changed.wait_for(lambda: reached() or self._lost is not None, timeout)
            value = latest()
            if value is not None and value.state_version >= target:
                return value
            if self._lost is not None:
                raise ConnectionLost(self._lost)
            raise TimeoutError(f"session {self.name!r} reached no version {target} within {timeout} s")


class Subscription:
    """An iterator over a session's pushes, subscribed when it is created (so
    nothing pushed after ``events()`` returns is missed); ``close()`` ends it."""

    def __init__(self, session: Session, timeout: Optional[float]) -> None:
        self._session = session
        self._timeout = timeout
        self._inbox: queue.SimpleQueue[Optional[Event]] = queue.SimpleQueue()
        self._done = False
        session._subscribe(self._inbox)

    def __iter__(self) -> "Subscription":
        return self

    def __next__(self) -> Event:
        if self._done:
            raise StopIteration
        try:
            event = self._inbox.get(timeout=self._timeout)
        except queue.Empty:
            event = None
        if event is None:
            self.close()
            raise StopIteration
        return event

    def close(self) -> None:
        self._done = True
        self._session._unsubscribe(self._inbox)

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        self._session._unsubscribe(self._inbox)


class ResultsSubscription:
    """A ``Subscription`` that yields only ``resultsUpdated``."""

    def __init__(self, session: Session, timeout: Optional[float]) -> None:
        self._events = Subscription(session, timeout)

    def __iter__(self) -> "ResultsSubscription":
        return self

    def __next__(self) -> ResultsUpdate:
        while True:
            event = next(self._events)
            if isinstance(event, ResultsUpdate):
                return event

    def close(self) -> None:
        self._events.close()

    def __enter__(self) -> "ResultsSubscription":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
