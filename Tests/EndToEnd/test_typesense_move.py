"""Moving an index onto a Typesense cluster and back, with the commands the README gives:
export it, delete it, name it in the config's `typesense.indices`, import it; the reverse to bring it home.
Other indices stay in the embedded engine throughout."""
import json
import os
import subprocess

import pytest

from harness import SocketDaemon, quarry_binary

RECORDS = [{"objectID": f"p{i}", "name": f"{word} lamp {i}", "brand": brand, "price": i}
           for i, (word, brand) in enumerate([("brass", "Acme"), ("paper", "Bolt"), ("steel", "Acme"),
                                              ("glass", "Cove"), ("brass", "Bolt")])]
SETTINGS = {"searchableAttributes": ["name", "brand"], "attributesForFaceting": ["brand"], "customRanking": ["desc(price)"]}


@pytest.fixture
def home(short_tmp, monkeypatch):
    """A config directory of the test's own (the tier's config must not leak in)."""
    config = os.path.join(short_tmp, "config")
    os.makedirs(os.path.join(config, "quarry"))
    monkeypatch.setenv("XDG_CONFIG_HOME", config)
    monkeypatch.delenv("QUARRY_EXTRA_SERVE_ARGS", raising=False)
    return config


def quarry(*args, socket_path):
    done = subprocess.run([quarry_binary(), *args, "--socket", socket_path], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return done.stdout


def configure(home, node, indices):
    path = os.path.join(home, "quarry", "config.json")
    if indices is None:
        os.remove(path)
        return
    with open(path, "w") as f:
        json.dump({"typesense": node.config(indices=indices)}, f)


def summary(client, query):
    result = client.result("search", {"index": "products", "query": query, "facets": ["brand"]})
    return [hit["objectID"] for hit in result["hits"]], result["nbHits"], result["facets"]


def test_an_index_moves_to_the_cluster_and_back(short_tmp, data_dir, home, typesense_node):
    sock = os.path.join(short_tmp, "q.sock")
    records = os.path.join(short_tmp, "products.ndjson")
    settings = os.path.join(short_tmp, "settings.json")
    with open(records, "w") as f:
        f.writelines(json.dumps(record) + "\n" for record in RECORDS)
    with open(settings, "w") as f:
        json.dump(SETTINGS, f)

    daemon = SocketDaemon(data_dir, sock)
    quarry("import", "products", records, "--settings", settings, socket_path=sock)
    client = daemon.connect()
    client.result("saveObjects", {"index": "notes", "objects": [{"objectID": "n1", "text": "stays local"}]})
    before = summary(client, "brass")
    assert before[1] == 2
    # Out of the embedded engine: export, then delete it there.
    quarry("export", "products", "-o", records, "--settings", settings, socket_path=sock)
    client.result("deleteIndex", {"index": "products"})
    daemon.terminate()

    configure(home, typesense_node, ["products"])
    daemon = SocketDaemon(data_dir, sock)
    client = daemon.connect(initialize=False)
    assert client.initialize()["capabilities"]["backend"]["name"] == "routed"
    quarry("import", "products", records, "--settings", settings, socket_path=sock)
    assert summary(client, "brass") == before
    assert client.result("getSettings", {"index": "products"})["customRanking"] == ["desc(price)"]
    collections = [c["name"] for c in typesense_node.request("GET", "/collections")]
    assert any(name.startswith("quarry_products_") for name in collections), collections
    assert not any("notes" in name for name in collections), "notes stays in the embedded engine"
    assert client.result("search", {"index": "notes", "query": "local"})["nbHits"] == 1

    # And back home.
    quarry("export", "products", "-o", records, "--settings", settings, socket_path=sock)
    client.result("deleteIndex", {"index": "products"})
    daemon.terminate()
    configure(home, typesense_node, None)
    daemon = SocketDaemon(data_dir, sock)
    quarry("import", "products", records, "--settings", settings, socket_path=sock)
    client = daemon.connect(initialize=False)
    assert client.initialize()["capabilities"]["backend"]["name"] == "embedded"
    assert summary(client, "brass") == before
    with open(records) as f:
        assert sorted(json.loads(line)["objectID"] for line in f) == sorted(r["objectID"] for r in RECORDS)
    daemon.terminate()
