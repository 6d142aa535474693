"""The shell clients for real: `quarry call`, `quarry watch` and `quarry fzf`
(its reload command directly, and its interactive part driven in tmux)."""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import time

import pytest

from harness import quarry_binary

PEOPLE = [
    {"objectID": "1", "name": "George Clooney", "bio": "actor"},
    {"objectID": "2", "name": "Amal Clooney", "bio": "lawyer"},
    {"objectID": "3", "name": "Brad Pitt", "bio": "actor"},
]


def quarry(daemon, *args, input=None, check=True):
    result = subprocess.run([quarry_binary(), *args, "--socket", daemon.path], input=input,
                            capture_output=True, text=True, timeout=30)
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.fixture
def people(daemon):
    quarry(daemon, "call", "saveObjects", json.dumps({"index": "people", "objects": PEOPLE}))
    return daemon


def session_methods(daemon):
    peer = daemon.connect(initialize=False)
    methods = peer.result("initialize", {})["capabilities"]["methods"]
    peer.close()
    if "openSession" not in methods:
        pytest.skip("the daemon has no session methods (issue 5 not merged)")


# quarry call

def test_call_prints_the_result_as_one_json_line(people):
    result = quarry(people, "call", "search", '{"index":"people","query":"cloo"}')
    assert result.stdout.count("\n") == 1
    reply = json.loads(result.stdout)
    assert reply["nbHits"] == 2 and {hit["objectID"] for hit in reply["hits"]} == {"1", "2"}


def test_call_reads_params_from_stdin_and_defaults_to_none(people):
    reply = json.loads(quarry(people, "call", "getSettings", "-", input='{"index":"people"}').stdout)
    assert reply["hitsPerPage"] == 20
    assert [item["name"] for item in json.loads(quarry(people, "call", "listIndices").stdout)["items"]] == ["people"]


def test_call_errors_go_to_stderr_as_json_with_exit_1(people):
    result = quarry(people, "call", "search", '{"index":"missing"}', check=False)
    assert result.returncode == 1 and result.stdout == ""
    error = json.loads(result.stderr)
    assert error["code"] == -32602 and error["data"] == {"parameter": "index"}
    result = quarry(people, "call", "noSuchMethod", check=False)
    assert result.returncode == 1 and json.loads(result.stderr)["code"] == -32601


def test_call_refuses_params_that_are_not_a_json_object(people):
    for params in ["[1]", "{oops"]:
        result = quarry(people, "call", "search", params, check=False)
        assert result.returncode != 0 and result.stdout == "" and "params" in result.stderr


def test_call_exits_2_when_no_daemon_can_be_reached(short_tmp):
    too_long = os.path.join(short_tmp, "x" * 120 + ".sock")
    result = subprocess.run([quarry_binary(), "call", "listIndices", "--socket", too_long],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "quarry call" in result.stderr


def test_call_can_show_the_notifications_before_the_reply(people, short_tmp):
    path = os.path.join(short_tmp, "more.ndjson")
    with open(path, "w") as file:
        file.write('{"objectID":"9","name":"Zed"}\n')
    result = quarry(people, "call", "importFile", json.dumps({"index": "more", "path": path, "workDoneToken": "t"}),
                    "--notifications")
    assert json.loads(result.stdout)["imported"] == 1
    kinds = [json.loads(line)["params"]["value"]["kind"] for line in result.stderr.splitlines()]
    assert kinds[0] == "begin" and kinds[-1] == "end"


def test_call_in_a_pipeline(people):
    pipeline = f"'{quarry_binary()}' call search '{{\"index\":\"people\",\"query\":\"pitt\"}}' --socket '{people.path}'" \
               " | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"hits\"][0][\"name\"])'"
    assert subprocess.run(pipeline, shell=True, capture_output=True, text=True, timeout=30).stdout == "Brad Pitt\n"


# quarry watch

def test_watch_prints_every_change_as_a_json_line(people):
    session_methods(people)
    watcher = subprocess.Popen([quarry_binary(), "watch", "team", "--index", "people", "--socket", people.path],
                               stdout=subprocess.PIPE, text=True)
    try:
        first = json.loads(watcher.stdout.readline())  # attached: the session's state
        assert first["method"] == "stateChanged" and first["session"] == "team"
        quarry(people, "call", "setQuery", '{"session":"team","query":"amal"}')
        lines = [first]
        while not (lines[-1]["method"] == "resultsUpdated" and lines[-1]["results"][0]["query"] == "amal"):
            lines.append(json.loads(watcher.stdout.readline()))
    finally:
        watcher.kill()
        watcher.wait()
    methods = [line["method"] for line in lines]
    assert methods.count("stateChanged") >= 2
    assert [line["state"]["query"] for line in lines if line["method"] == "stateChanged"][-1] == "amal"
    versions = {}
    for line in lines:  # each kind in increasing versions, none twice
        assert line["stateVersion"] > versions.get(line["method"], -1)
        versions[line["method"]] = line["stateVersion"]
    assert [hit["objectID"] for hit in lines[-1]["results"][0]["hits"]] == ["2"]


def test_watch_stops_after_count_lines(people):
    session_methods(people)
    quarry(people, "call", "openSession", json.dumps({"session": "counted", "searchers": [{"type": "hits", "index": "people"}]}))
    result = quarry(people, "watch", "counted", "--only", "state", "--count", "1")
    [line] = result.stdout.splitlines()
    assert json.loads(line)["state"]["searchers"][0]["index"] == "people"


def test_watch_only_results_feeds_a_pipeline(people):
    session_methods(people)
    quarry(people, "call", "openSession", json.dumps({"session": "piped", "searchers": [{"type": "hits", "index": "people"}]}))
    pipeline = subprocess.Popen(
        f"'{quarry_binary()}' watch piped --only results --socket '{people.path}' | head -n 1",
        shell=True, stdout=subprocess.PIPE, text=True)
    time.sleep(0.2)  # not an assertion: lets the watcher attach before the change
    quarry(people, "call", "setQuery", '{"session":"piped","query":"brad"}')
    line = json.loads(pipeline.stdout.readline())
    assert line["method"] == "resultsUpdated"
    # head has exited; the watcher's next line meets a closed pipe and ends it (SIGPIPE), as `yes | head` does.
    quarry(people, "call", "setQuery", '{"session":"piped","query":"amal"}')
    assert pipeline.wait(10) == 0


# quarry fzf: the reload command

def reload(daemon, session, query, check=True, extra=()):
    return quarry(daemon, "fzf", "people", "--session", session, *extra, "--reload-query", query, check=check)


def reload_lines(daemon, session, query, extra=()):
    """The header fzf keeps (--header-lines 1), without colour, and the hit lines."""
    header, *lines = reload(daemon, session, query, extra=extra).stdout.splitlines()
    return re.sub("\x1b\\[[0-9;]*m", "", header.split("\t")[1]), lines


def test_fzf_reload_types_into_the_session_and_prints_lines(people):
    session_methods(people)
    observer = people.connect()
    observer.result("openSession", {"session": "fz", "searchers": [{"type": "hits", "index": "people"}]})
    header, lines = reload_lines(people, "fz", "cloo")
    assert header == "2 hits"
    assert sorted(line.split("\t")[0] for line in lines) == ["1", "2"]
    for line in lines:
        object_id, shown, embedded = line.split("\t")
        assert "Clooney" in re.sub("\x1b\\[[0-9;]*m", "", shown) and json.loads(embedded)["objectID"] == object_id
        if "_matchRanges" in json.loads(embedded):  # highlights arrive with the engine's search half
            assert "\x1b[1;33mCloo\x1b[0mney" in shown
    state = observer.result("getState", {"session": "fz"})
    assert state["state"]["query"] == "cloo"
    # The observer was told of the typing as it happened.
    deadline = time.monotonic() + 10
    while not any(n["method"] == "stateChanged" and n["params"]["state"]["query"] == "cloo"
                  for n in observer.notifications) and time.monotonic() < deadline:
        message = observer.receive(0.5)
        if message and "method" in message:
            observer.notifications.append(message)
    assert any(n["params"]["state"]["query"] == "cloo" for n in observer.notifications if n["method"] == "stateChanged")


def test_fzf_reload_skips_a_facets_only_searcher_that_comes_first(people):
    """The Neovim picker adds a hits searcher with hitsPerPage 0 for facet counts alone
    (clients/nvim, "quarry-facets"): fzf must list hits from a searcher that shows some."""
    session_methods(people)
    observer = people.connect()
    observer.result("openSession", {"session": "counts", "searchers": [
        {"type": "hits", "index": "people", "hitsPerPage": 0, "facets": ["name"]}]})
    header, lines = reload_lines(people, "counts", "cloo")
    assert header == "2 hits"
    assert sorted(line.split("\t")[0] for line in lines) == ["1", "2"]


def test_fzf_reload_twice_with_the_same_query_still_prints(people):
    session_methods(people)
    assert reload_lines(people, "same", "brad")[0] == "1 hit"
    header, lines = reload_lines(people, "same", "brad")
    assert header == "1 hit" and len(lines) == 1


def test_fzf_reload_header_counts_every_hit_not_the_lines_listed(people):
    session_methods(people)
    header, lines = reload_lines(people, "few", "", extra=("--hits-per-page", "2"))
    assert header == "2 of 3 hits" and len(lines) == 2
    header, lines = reload_lines(people, "few", "🍕", extra=("--hits-per-page", "2"))
    assert header == "0 hits: the query has no searchable words" and lines == []


def test_fzf_lines_colour_utf16_ranges_on_multibyte_text(people):
    hit = json.dumps({"objectID": "4", "name": "Émile Zola 😀 x", "_matchRanges": {"name": [[6, 10], [14, 15]]}})
    output = quarry(people, "fzf", "people", "--preview", hit).stdout
    assert "Émile \x1b[1;33mZola\x1b[0m 😀 \x1b[1;33mx\x1b[0m" in output


def test_fzf_preview_shows_each_attribute(people):
    hit = json.dumps({"objectID": "1", "name": "George Clooney", "_matchRanges": {"name": [[7, 11]]}})
    output = quarry(people, "fzf", "people", "--preview", hit).stdout
    assert "George \x1b[1;33mCloo\x1b[0mney" in output and "objectID" in output


def test_killing_reloads_mid_flight_is_harmless(people):
    session_methods(people)
    randomness = random.Random(6)
    for index in range(30):
        process = subprocess.Popen([quarry_binary(), "fzf", "people", "--session", "killed", "--socket", people.path,
                                    "--reload-query", "clo"[: 1 + index % 3]],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(randomness.uniform(0, 0.03))  # kill at a random point: fzf does so on each keystroke
        process.send_signal(randomness.choice([signal.SIGKILL, signal.SIGTERM]))
        process.wait(10)
    assert people.process.poll() is None
    header, lines = reload_lines(people, "killed", "pitt")
    assert [line.split("\t")[0] for line in lines] == ["3"]
    sessions = json.loads(quarry(people, "call", "getState", '{"session":"killed"}').stdout)
    assert sessions["state"]["query"] == "pitt" and len(sessions["state"]["searchers"]) == 1


# quarry fzf: interactive, in tmux

@pytest.fixture
def tmux(short_tmp):
    if not shutil.which("tmux") or not shutil.which("fzf"):
        pytest.skip("tmux and fzf are needed (apt-get install tmux fzf)")
    name = f"quarry-test-{os.getpid()}"
    yield name
    subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def wait_for_pane(tmux, predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while True:
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-e", "-t", tmux], capture_output=True, text=True).stdout
        if predicate(screen):
            return screen
        assert time.monotonic() < deadline, f"the pane never showed what was expected:\n{screen}"
        time.sleep(0.1)


def test_fzf_in_tmux_types_live_shows_highlights_and_prints_the_choice(people, tmux, short_tmp):
    session_methods(people)
    out = os.path.join(short_tmp, "chosen.json")
    command = (f"'{quarry_binary()}' fzf people --session live --hits-per-page 1 --socket '{people.path}' > '{out}';"
               f" echo $? >> '{out}.rc'")
    subprocess.run(["tmux", "new-session", "-d", "-s", tmux, "-x", "160", "-y", "30", command], check=True)
    # The header counts the session's hits, not the one line listed (fzf's own counter would say 1/1).
    wait_for_pane(tmux, lambda screen: "1 of 3 hits" in screen)
    subprocess.run(["tmux", "send-keys", "-t", tmux, "cloo"], check=True)

    def listed(screen):  # the list's side of each row, left of the preview's border
        return "\n".join(row.split("│")[0] for row in screen.splitlines())

    def cloo_highlighted(screen):  # not "cl" or "clo", which also find both Clooneys
        return "\x1b[1;33mCloo" in screen or "\x1b[33m\x1b[1mCloo" in screen or "Cloo\x1b" in screen

    # The header arrives first in a reload's output: wait for the hit line of the last keystroke too.
    screen = wait_for_pane(tmux, lambda screen: "1 of 2 hits" in screen and cloo_highlighted(listed(screen)))
    assert "1/1" not in screen and "Brad Pitt" not in listed(screen)
    state = json.loads(quarry(people, "call", "getState", '{"session":"live"}').stdout)
    assert state["state"]["query"] == "cloo"  # the typing went through the session
    subprocess.run(["tmux", "send-keys", "-t", tmux, "Enter"], check=True)
    deadline = time.monotonic() + 20
    while not os.path.exists(out + ".rc"):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    with open(out) as chosen:
        record = json.loads(chosen.readline())
    assert record["name"].endswith("Clooney") and "_matchRanges" not in record
    with open(out + ".rc") as rc:
        assert rc.read().strip() == "0"


# Estimates, then exact counts (issue 30): on a Typesense cluster (the Typesense pass) a one-letter
# query over 80 words starting with it is answered first with an estimate. fzf keeps a reload's
# header and could only be told to reload again through its unauthenticated --listen endpoint, so
# a reload waits for the exact counts: fzf never shows an estimate that nothing would replace.

ESTIMATED_WORDS = [f"c{a}{b}x" for a in "aeiou" for b in "bdfglmnprstvwyzk"]  # more than Typesense's 4 prefix candidates


@pytest.fixture
def things(people):
    records = [{"objectID": str(i), "title": f"{ESTIMATED_WORDS[i % 80]} item {i}"} for i in range(1200)]
    records += [{"objectID": f"z{i}", "title": f"zulu item {i}"} for i in range(100)]  # the empty query finds 1,300
    quarry(people, "call", "setSettings", json.dumps({"index": "things", "settings": {"searchableAttributes": ["title"]}}))
    quarry(people, "call", "saveObjects", json.dumps({"index": "things", "objects": records}))
    return people


def test_fzf_reload_prints_the_exact_count_not_the_estimate(things):
    session_methods(things)
    for query in ("c", "ce", "c"):
        header = quarry(things, "fzf", "things", "--session", "estimates", "--hits-per-page", "5",
                        "--reload-query", query).stdout.splitlines()[0]
        shown = re.sub("\x1b\\[[0-9;]*m", "", header.split("\t")[1])
        expected = 15 * sum(1 for word in ESTIMATED_WORDS if word.startswith(query))
        assert shown == f"5 of {expected:,} hits", shown


def test_fzf_in_tmux_shows_the_exact_count(things, tmux):
    session_methods(things)
    command = f"'{quarry_binary()}' fzf things --session live-estimates --hits-per-page 5 --socket '{things.path}'"
    subprocess.run(["tmux", "new-session", "-d", "-s", tmux, "-x", "160", "-y", "30", command], check=True)
    wait_for_pane(tmux, lambda screen: "5 of 1,300 hits" in screen)
    subprocess.run(["tmux", "send-keys", "-t", tmux, "c"], check=True)
    screen = wait_for_pane(tmux, lambda screen: "5 of 1,200 hits" in screen)
    assert "~" not in screen
    state = json.loads(quarry(things, "call", "getState", '{"session":"live-estimates"}').stdout)
    assert state["state"]["query"] == "c"


# The scripts in clients/shell

SHELL_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "shell")


def script_environment(daemon):
    return dict(os.environ, QUARRY_SOCK=daemon.path,
                PATH=os.path.dirname(quarry_binary()) + os.pathsep + SHELL_DIR + os.pathsep + os.environ["PATH"])


def test_quarry_type_sends_each_prefix_to_the_session(people):
    session_methods(people)
    quarry(people, "call", "openSession", json.dumps({"session": "typed", "searchers": [{"type": "hits", "index": "people"}]}))
    watcher = subprocess.Popen([quarry_binary(), "watch", "typed", "--only", "state", "--socket", people.path],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert json.loads(watcher.stdout.readline())["state"]["query"] == ""  # attached
        result = subprocess.run(["quarry-type", "typed", 'b"d'], env=script_environment(people),
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        final = json.loads(result.stdout)
        queries = []
        while not queries or queries[-1] != 'b"d':
            line = json.loads(watcher.stdout.readline())
            queries.append(line["state"]["query"])
            assert line["stateVersion"] <= final["stateVersion"]
    finally:
        watcher.kill()
        watcher.wait()
    assert queries == ["b", 'b"', 'b"d']  # every keystroke, in order, quotes intact


def test_quarry_type_on_a_missing_session_fails_with_the_daemons_error(people):
    session_methods(people)
    result = subprocess.run(["quarry-type", "nobody", "x"], env=script_environment(people),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and json.loads(result.stderr)["data"] == {"parameter": "session"}


def test_bash_completion_offers_commands_and_index_names(people):
    if not shutil.which("bash"):
        pytest.skip("bash is needed")
    script = f"""
        source '{os.path.join(SHELL_DIR, "quarry-completion.bash")}'
        COMP_WORDS=(quarry wa); COMP_CWORD=1; _quarry; echo "${{COMPREPLY[*]}}"
        COMP_WORDS=(quarry fzf pe); COMP_CWORD=2; _quarry; echo "${{COMPREPLY[*]}}"
        COMP_WORDS=(quarry call setQ); COMP_CWORD=2; _quarry; echo "${{COMPREPLY[*]}}"
        COMP_WORDS=(quarry o); COMP_CWORD=1; _quarry; echo "${{COMPREPLY[*]}}"
        COMP_WORDS=(quarry open pe); COMP_CWORD=2; _quarry; echo "${{COMPREPLY[*]}}"
    """
    result = subprocess.run(["bash", "-c", script], env=script_environment(people), capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.splitlines() == ["watch", "people", "setQuery", "open", "people"], result.stderr


def test_quarry_open_opens_the_chosen_records_path_in_the_editor(people, tmux, short_tmp):
    session_methods(people)
    target = os.path.join(short_tmp, "notes.txt")
    opened = os.path.join(short_tmp, "opened")
    editor = os.path.join(short_tmp, "editor")
    with open(editor, "w") as script:
        script.write(f"#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{opened}'\n")
    os.chmod(editor, 0o755)
    quarry(people, "call", "saveObjects", json.dumps({"index": "docs", "objects": [
        {"objectID": "n", "title": "notes", "path": target}, {"objectID": "o", "title": "other", "path": "/nowhere"}]}))
    environment = " ".join(f"{key}='{value}'" for key, value in script_environment(people).items()
                           if key in ("QUARRY_SOCK", "PATH"))
    command = f"env {environment} EDITOR='{editor}' quarry-open docs opening; echo $? > '{opened}.rc'"
    subprocess.run(["tmux", "new-session", "-d", "-s", tmux, "-x", "160", "-y", "30", command], check=True)
    wait_for_pane(tmux, lambda screen: "2/2" in screen)
    subprocess.run(["tmux", "send-keys", "-t", tmux, "notes"], check=True)
    wait_for_pane(tmux, lambda screen: "1/1" in screen)
    subprocess.run(["tmux", "send-keys", "-t", tmux, "Enter"], check=True)
    deadline = time.monotonic() + 20
    while not os.path.exists(opened + ".rc"):
        assert time.monotonic() < deadline, "quarry-open did not finish"
        time.sleep(0.1)
    with open(opened) as file:
        assert file.read().splitlines() == [target]
