"""README.md's export → import example, run as written.

1. `quarry import talks …`, `quarry export talks …` and `quarry import talks-copy …` all succeed, though the
   exported settings name the original's replicas: the copy leaves them out and says so.
2. The copy answers every search as the original does: all hits of several queries, in order, ties included
   (export lists records in the order ties are broken in, which the import keeps).

The README's data set is made by the test (ted_data.py) where the README's paths expect it.
"""
import os
import shlex
import subprocess

import pytest

import ted_data
from harness import ROOT, quarry_binary

QUERIES = ["", "climate", "brain", "ocean life", "musik", "the"]


def readme_round_trip():
    """The README's lines that import `talks`, export it and import the copy, in README order, each once."""
    with open(os.path.join(ROOT, "README.md")) as f:
        lines = [line.split("#")[0].strip() for line in f]
    commands = []
    for line in lines:
        if line.startswith(("quarry import talks ", "quarry export talks ", "quarry import talks-copy ")):
            if line not in commands:
                commands.append(line)
    assert [c.split()[1:3] for c in commands] == [["import", "talks"], ["export", "talks"], ["import", "talks-copy"]]
    return [shlex.split(c)[1:] for c in commands]


def run_round_trip(daemon, short_tmp):
    """Runs the README's commands in a directory whose `../shared/data/tedtalks` holds a TED-talks-shaped set."""
    ted_data.write(os.path.join(short_tmp, "shared", "data", "tedtalks"))
    work = os.path.join(short_tmp, "work")
    os.mkdir(work)
    outputs = []
    for args in readme_round_trip():
        done = subprocess.run([quarry_binary(), *args, "--socket", daemon.path], cwd=work, capture_output=True,
                              text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, (args, done.stderr)
        outputs.append(done)
    return outputs


def test_the_readme_export_import_round_trip_works_as_written(daemon, short_tmp):
    _, exported, copied = run_round_trip(daemon, short_tmp)
    assert "exported" in exported.stderr
    assert "left out replicas that belong to another index: 'talks_date_asc' (a replica of 'talks')" in copied.stderr
    client = daemon.connect()
    original = client.result("getSettings", {"index": "talks"})
    copy = client.result("getSettings", {"index": "talks-copy"})
    assert original.pop("replicas") and copy.pop("replicas") == []
    assert copy == original
    assert client.result("getSettings", {"index": "talks_date_asc"})["primary"] == "talks", "still the original's"
    counts = [client.result("search", {"index": name, "query": ""})["nbHits"] for name in ("talks", "talks-copy")]
    assert counts[0] > 100 and counts[0] == counts[1]


def test_a_copy_made_by_the_round_trip_answers_every_search_identically(daemon, short_tmp):
    run_round_trip(daemon, short_tmp)
    client = daemon.connect()
    for query in QUERIES:
        answers = []
        for index in ("talks", "talks-copy"):
            found = client.result("search", {"index": index, "query": query, "hitsPerPage": 1000,
                                             "attributesToRetrieve": ["objectID"], "attributesToHighlight": []})
            answers.append([hit["objectID"] for hit in found["hits"]])
        assert len(answers[0]) > 1, query
        assert answers[0] == answers[1], f"query {query!r}: first difference at hit " + str(
            next(i for i, (a, b) in enumerate(zip(*answers)) if a != b))
