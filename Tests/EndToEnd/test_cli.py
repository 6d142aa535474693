"""The index CLI commands against a real daemon: import, search, settings."""
import json
import os
import subprocess

from harness import quarry_binary


def quarry(*args, socket_path, check=True):
    done = subprocess.run([quarry_binary(), *args, "--socket", socket_path], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_import_search_and_settings(daemon, short_tmp):
    records = os.path.join(short_tmp, "movies.json")
    with open(records, "w") as f:
        json.dump([{"objectID": str(i), "title": t, "year": y} for i, (t, y) in enumerate(
            [("The Matrix", 1999), ("Matrix Reloaded", 2003), ("Amélie", 2001), ("Alien", 1979)])], f)
    settings = os.path.join(short_tmp, "settings.json")
    with open(settings, "w") as f:
        json.dump({"attributesToIndex": ["title"], "customRanking": ["desc(year)"], "ignorePlurals": False}, f)

    done = quarry("import", "movies", records, "--settings", settings, socket_path=daemon.path)
    assert "imported 4 records" in done.stdout

    found = json.loads(quarry("search", "movies", "matrx", "--json", socket_path=daemon.path).stdout)
    assert [hit["objectID"] for hit in found["hits"]] == ["1", "0"], "typo-tolerant, newest first"
    text = quarry("search", "movies", "ameli", socket_path=daemon.path).stdout
    assert "<em>Améli</em>e" in text

    shown = json.loads(quarry("settings", "movies", socket_path=daemon.path).stdout)
    assert shown["searchableAttributes"] == ["title"]
    assert shown["customRanking"] == ["desc(year)"]


def test_import_reports_the_bad_record_and_changes_nothing(daemon, short_tmp):
    good = os.path.join(short_tmp, "good.ndjson")
    with open(good, "w") as f:
        f.write('{"objectID":"1","name":"one"}\n')
    quarry("import", "things", good, socket_path=daemon.path)
    bad = os.path.join(short_tmp, "bad.ndjson")
    with open(bad, "w") as f:
        f.write('{"objectID":"2","name":"two"}\n[1,2]\n{"objectID":"3","name":"three"}\n')
    done = quarry("import", "things", bad, socket_path=daemon.path, check=False)
    assert done.returncode != 0
    assert "line 2" in done.stderr
    found = json.loads(quarry("search", "things", "", "--json", socket_path=daemon.path).stdout)
    assert found["nbHits"] == 1

    done = quarry("import", "things", bad, "--skip-invalid", socket_path=daemon.path)
    assert "imported 2 records" in done.stdout and "skipped 1" in done.stdout
    found = json.loads(quarry("search", "things", "", "--json", socket_path=daemon.path).stdout)
    assert found["nbHits"] == 3
