"""Algolia's official Python client (algoliasearch 4.x, unmodified) pointed at a daemon's HTTP listener with
its documented host configuration: scheme http, host 127.0.0.1, the listener's port."""
import http.client
import json

from algoliasearch.http.hosts import Host, HostsCollection
from algoliasearch.search.client import SearchClient, SearchClientSync
from algoliasearch.search.config import SearchConfig


def config(daemon, key):
    settings = SearchConfig("quarry", daemon.keys[key] if key in ("admin", "search") else key)
    settings.hosts = HostsCollection([Host(url="127.0.0.1", scheme="http", port=daemon.port)])
    return settings


def client(daemon, key="admin"):
    return SearchClientSync.create_with_config(config(daemon, key))


def async_client(daemon, key="admin"):
    return SearchClient.create_with_config(config(daemon, key))


def raw(daemon, method, path, body=None, headers=None):
    """One plain HTTP request: (status, headers, parsed JSON body or text)."""
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=10)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    connection.request(method, path, body=data, headers=headers or {})
    response = connection.getresponse()
    text = response.read()
    connection.close()
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = text.decode()
    return response.status, dict(response.getheaders()), parsed
