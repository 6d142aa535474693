"""`quarry search` as a person reads it (issue 26, items 5–8 and 16), on the real binary:
1. matches are coloured on a terminal, left unmarked there when NO_COLOR is set, tagged in a pipe,
   and `--highlight color|tags|none` chooses;
2. every hit's line starts with its title (the first searchable attribute, else the objectID),
   even when only another attribute matched;
3. the facet summary says how many more values there are, exactly when the search returned them
   all and as "N+ more" when it stopped at maxValuesPerFacet;
4. a facet asked for on an attribute not declared for faceting is named in `facetsNotCounted` and
   warned about with the setting to change;
5. a query of only emoji matches nothing and says that it held no searchable word; a blank query
   still matches every record."""
import json
import os
import pty
import re
import subprocess

import pytest

import ted_data
from harness import ROOT, quarry_binary

TALKS = [
    {"objectID": "1", "name": "Climate change is happening", "tags": ["climate", "weather"], "category": "science"},
    {"objectID": "2166", "name": "The ocean's green machines", "tags": ["climate", "ocean"], "category": "science"},
    {"objectID": "3", "tags": ["climate"], "category": "misc"},
    {"objectID": "4", "name": "Why we love pizza 🍕", "tags": ["food"], "category": "food"},
]
SETTINGS = {"searchableAttributes": ["name", "tags"], "attributesForFaceting": ["tags", "filterOnly(category)"],
            "customRanking": []}


def quarry(daemon, *args, check=True, env=None):
    done = subprocess.run([quarry_binary(), *args, "--socket", daemon.path], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, env=env)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def on_a_terminal(daemon, *args, env):
    """Runs quarry with its stdout on a pseudo-terminal and returns what it printed there."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([quarry_binary(), *args, "--socket", daemon.path], stdout=follower,
                               stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other side closed
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(60) == 0, process.stderr.read()
    return output.decode()


@pytest.fixture
def talks(daemon):
    quarry(daemon, "call", "saveObjects", json.dumps({"index": "talks", "objects": TALKS}))
    quarry(daemon, "call", "setSettings", json.dumps({"index": "talks", "settings": SETTINGS}))
    return daemon


def environment(**changes):
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    env.update(changes)
    return env


def test_no_color_on_a_terminal_marks_nothing_and_highlight_chooses(talks):
    coloured = on_a_terminal(talks, "search", "talks", "happening", env=environment())
    assert "\x1b[1;33mhappening\x1b[0m" in coloured and "<em>" not in coloured
    plain = on_a_terminal(talks, "search", "talks", "happening", env=environment(NO_COLOR="1"))
    assert "Climate change is happening" in plain
    assert "\x1b[" not in plain and "<em>" not in plain
    # Captured by a program: the tags, unless --highlight says otherwise.
    assert "<em>happening</em>" in quarry(talks, "search", "talks", "happening").stdout
    none = quarry(talks, "search", "talks", "happening", "--highlight", "none").stdout
    assert "Climate change is happening" in none and "<em>" not in none and "\x1b[" not in none
    assert "\x1b[1;33mhappening\x1b[0m" in quarry(talks, "search", "talks", "happening", "--highlight", "color").stdout
    assert "\x1b[1;33mhappening" in on_a_terminal(talks, "search", "talks", "happening", "--highlight", "color",
                                                 env=environment(NO_COLOR="1"))


def test_every_hit_starts_with_its_title_even_when_only_tags_matched(talks):
    lines = quarry(talks, "search", "talks", "ocean", "--highlight", "tags").stdout.splitlines()
    assert lines[1] == "2166\tThe <em>ocean</em>'s green machines  |  tags: <em>ocean</em>"
    lines = quarry(talks, "search", "talks", "weather", "--highlight", "none").stdout.splitlines()
    assert lines[1] == "1\tClimate change is happening  |  tags: weather"
    # No title attribute in the record: the objectID stands for it.
    lines = quarry(talks, "search", "talks", "climate", "--highlight", "none").stdout.splitlines()
    assert "3\t3  |  tags: climate" in lines
    assert "2166\tThe ocean's green machines  |  tags: climate" in lines


def test_the_count_line_says_1_hit_and_no_hits(talks):
    """Issue 26's item 13 in the CLI too: the first line counts in English."""
    assert quarry(talks, "search", "talks", "weather").stdout.splitlines()[0].startswith("1 hit in ")
    assert quarry(talks, "search", "talks", "zzzzqqq").stdout.splitlines()[0].startswith("no hits in ")
    assert quarry(talks, "search", "talks", "climate").stdout.splitlines()[0].split(" ")[1] == "hits"


def test_the_facet_summary_says_how_many_more_values_there_are(daemon):
    records = [{"objectID": str(i), "name": f"talk {i}", "tags": [f"tag{i:03d}"]} for i in range(404)]
    quarry(daemon, "call", "saveObjects", json.dumps({"index": "many", "objects": records}))
    quarry(daemon, "call", "setSettings", json.dumps({"index": "many", "settings": {"attributesForFaceting": ["tags"]}}))
    summary = [line for line in quarry(daemon, "search", "many", "", "--facets", "tags").stdout.splitlines()
               if line.startswith("facet tags:")]
    assert summary and summary[0].endswith(", … 394 more"), summary
    # Told to fetch only 100 values, the search cannot know how many there are.
    summary = [line for line in quarry(daemon, "search", "many", "", "--facets", "tags", "--params",
                                       '{"maxValuesPerFacet": 100}').stdout.splitlines()
               if line.startswith("facet tags:")]
    assert summary and summary[0].endswith(", … 90+ more"), summary
    # --json keeps the index's own maxValuesPerFacet (100 by default).
    found = json.loads(quarry(daemon, "search", "many", "", "--facets", "tags", "--json").stdout)
    assert len(found["facets"]["tags"]) == 100


def test_a_facet_not_declared_for_faceting_is_named_with_the_setting_to_add(talks):
    done = quarry(talks, "search", "talks", "", "--facets", "tags,speaker,category")
    assert "facet tags: climate (3)" in done.stdout
    assert ("'speaker' is not declared for faceting; add \"speaker\" to the index setting attributesForFaceting"
            in done.stderr)
    assert "'category' is declared as filterOnly(category)" in done.stderr
    found = json.loads(quarry(talks, "search", "talks", "", "--facets", "tags,speaker,category", "--json").stdout)
    assert list(found["facets"]) == ["tags"]
    assert list(found["facetsNotCounted"]) == ["speaker", "category"]
    assert "attributesForFaceting" in found["facetsNotCounted"]["speaker"]
    assert "facetsNotCounted" not in json.loads(quarry(talks, "search", "talks", "", "--facets", "*", "--json").stdout)


def test_a_query_of_only_emoji_matches_nothing_and_says_why(talks):
    found = json.loads(quarry(talks, "search", "talks", "🍕", "--json").stdout)
    assert found["nbHits"] == 0 and found["hits"] == [] and found["queryHasNoWords"] is True
    found = json.loads(quarry(talks, "call", "search", json.dumps(
        {"index": "talks", "query": "🍕 ?!", "facets": ["tags"]})).stdout)
    assert found["nbHits"] == 0 and found["queryHasNoWords"] is True and found["facets"] == {"tags": {}}
    assert quarry(talks, "search", "talks", "🍕").stdout.splitlines() == [
        "0 hits: the query has no searchable words (emoji, symbols and punctuation are not indexed)"]
    # Words around the emoji still search; a blank query still lists everything.
    found = json.loads(quarry(talks, "search", "talks", "pizza 🍕", "--json").stdout)
    assert [hit["objectID"] for hit in found["hits"]] == ["4"] and "queryHasNoWords" not in found
    found = json.loads(quarry(talks, "search", "talks", "  ", "--json").stdout)
    assert found["nbHits"] == len(TALKS) and "queryHasNoWords" not in found


def test_a_session_shows_no_hits_for_a_query_of_only_emoji(talks):
    observer = talks.connect()
    observer.result("openSession", {"session": "emoji", "searchers": [{"type": "hits", "index": "talks"}]})
    version = observer.result("setQuery", {"session": "emoji", "query": "🍕"})["stateVersion"]
    while True:
        message = observer.receive()
        assert message is not None, "no resultsUpdated for the emoji query"
        if message.get("method") == "resultsUpdated" and message["params"]["stateVersion"] >= version:
            break
    result = message["params"]["results"][0]
    assert result["nbHits"] == 0 and result["queryHasNoWords"] is True


def test_the_readme_search_examples(daemon, tmp_path):
    """README.md, "Using it": the TED talks searches, each hit line with a title (on ted_data.py's talks)."""
    ted = ted_data.write(str(tmp_path / "tedtalks"))
    quarry(daemon, "import", "talks", os.path.join(ted, "talks.json"), "--settings", os.path.join(ted, "talks_settings.json"))
    lines = quarry(daemon, "search", "talks", "climat chnage").stdout.splitlines()
    assert re.fullmatch(r"\d+ hits in \d+ ms", lines[0]) and len(lines) > 1
    for line in lines[1:]:
        object_id, text = line.split("\t", 1)
        assert text and not text.startswith(("tags:", "speakers:", "event_name:")), line
    assert "<em>climate</em> <em>change</em>" in "\n".join(lines)
    # Some talks match only on their tags: they still show their name first.
    assert any("<em>" not in line.split("\t")[1].split("  |  ")[0] and "  |  tags: <em>" in line for line in lines[1:])
    lines = quarry(daemon, "search", "talks", "brain", "--facets", "tags,event_name", "--filters",
                   "duration_range > 1").stdout.splitlines()
    facets = [line for line in lines if line.startswith("facet ")]
    assert [line.split(":")[0] for line in facets] == ["facet tags", "facet event_name"]
    assert all(re.search(r", … \d+ more$", line) for line in facets), facets
    piped = quarry(daemon, "search", "talks", "climate", "--highlight", "none").stdout
    assert "climate change" in piped.lower() and "<em>" not in piped and "\x1b[" not in piped
