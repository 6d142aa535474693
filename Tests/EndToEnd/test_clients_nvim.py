"""The Neovim plugin in headless Neovim against the real daemon: its Lua specs
run through clients/nvim/tests/runner.lua; the follow test has Python change
the session while the picker watches."""
import os
import shutil
import subprocess
import time
import warnings

import pytest

from harness import ROOT, quarry_binary

quarry = pytest.importorskip("quarry", reason="the Python client is installed by scripts/python-env")

NVIM_DIR = os.path.join(ROOT, "clients", "nvim")
PEOPLE = [
    {"objectID": "1", "name": "George Clooney", "bio": "actor", "tags": ["actor"], "popularity": 10},
    {"objectID": "2", "name": "Amal Clooney", "bio": "lawyer", "tags": ["lawyer"], "popularity": 8},
    {"objectID": "3", "name": "Brad Pitt", "bio": "actor", "tags": ["actor"], "popularity": 9},
    {"objectID": "4", "name": "Émile Zola", "bio": "writer", "tags": ["writer"], "popularity": 5},
]


@pytest.fixture
def fixture_daemon(daemon, short_tmp):
    if not shutil.which("nvim"):
        pytest.skip("nvim is needed (apt-get install neovim)")
    with open(os.path.join(short_tmp, "README.txt"), "w") as readme:
        readme.write("hello\n")
    with quarry.Client.connect(daemon.path, start=False) as client:
        if "openSession" not in client.server_info.methods:
            pytest.skip("the daemon has no session methods (issue 5 not merged)")
        client.set_settings("people", {"searchableAttributes": ["name", "bio"], "attributesForFaceting": ["tags"],
                                       "replicas": ["people_by_popularity", "virtual(people_relevant)"]})
        client.save_objects("people", PEOPLE)
        client.set_settings("people_by_popularity", {"customRanking": ["desc(popularity)"]})
        client.set_settings("people_relevant", {"customRanking": ["desc(popularity)"], "relevancyStrictness": 50})
        client.save_objects("files", [{"objectID": "r", "title": "readme", "path": os.path.join(short_tmp, "README.txt")}])
    return daemon


def nvim(daemon, short_tmp, *specs, wait=True):
    environment = dict(os.environ, QUARRY_BIN=quarry_binary(), QUARRY_TEST_SOCKET=daemon.path,
                       QUARRY_TEST_DIR=short_tmp)
    command = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
               "-c", f"luafile {os.path.join(NVIM_DIR, 'tests', 'runner.lua')}", "--",
               *[os.path.join(NVIM_DIR, "tests", spec) for spec in specs]]
    process = subprocess.Popen(command, env=environment, cwd=short_tmp, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not wait:
        return process
    output, _ = process.communicate(timeout=180)
    return process.returncode, output


def test_specs_that_need_no_daemon(short_tmp):
    if not shutil.which("nvim"):
        pytest.skip("nvim is needed (apt-get install neovim)")
    environment = dict(os.environ)
    process = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                              "-c", f"luafile {os.path.join(NVIM_DIR, 'tests', 'runner.lua')}", "--",
                              os.path.join(NVIM_DIR, "tests", "render_spec.lua"),
                              os.path.join(NVIM_DIR, "tests", "plugin_spec.lua"),
                              os.path.join(NVIM_DIR, "tests", "rpc_spec.lua")],
                             env=environment, capture_output=True, text=True, timeout=60)
    assert process.returncode == 0, process.stdout + process.stderr
    assert "0 failed" in process.stdout


def test_the_runner_fails_when_a_spec_fails(short_tmp):
    if not shutil.which("nvim"):
        pytest.skip("nvim is needed (apt-get install neovim)")
    failing = os.path.join(short_tmp, "failing_spec.lua")
    with open(failing, "w") as spec:
        spec.write('return { { "fails", function() error("boom") end } }\n')
    process = subprocess.run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
                              "-c", f"luafile {os.path.join(NVIM_DIR, 'tests', 'runner.lua')}", "--", failing],
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 1 and "FAIL fails" in process.stdout


class NvimSpecSkipped(UserWarning):
    """A Lua spec skipped itself; the reason says what the daemon lacks."""


def test_picker_spec(fixture_daemon, short_tmp):
    code, output = nvim(fixture_daemon, short_tmp, "picker_spec.lua")
    print(output)
    assert code == 0, output
    assert "0 failed" in output
    for line in output.splitlines():
        if line.startswith("skip "):  # shown in pytest's summary, not hidden in the captured output
            warnings.warn(NvimSpecSkipped(line[5:]))


TALKS = [  # dates at noon UTC, so each is the same day in any time zone within 11 hours of it
    {"objectID": "1", "name": "Talk one", "date": 1140868800, "recorded": 1000036800, "duration": 600},
    {"objectID": "2", "name": "Talk two", "date": 1479124800, "recorded": 1000036800, "duration": 600},
    {"objectID": "3", "name": "Talk three", "date": 1479124800, "recorded": 1000036800, "duration": 1479124800},
]


def test_the_picker_on_a_session_quarry_fzf_created_and_on_timestamp_facets(fixture_daemon, short_tmp):
    """Issue 26, item 12: the session fzf creates has no facets; a date facet holds Unix timestamps."""
    opened = subprocess.run([quarry_binary(), "fzf", "people", "--session", "from-fzf", "--socket",
                             fixture_daemon.path, "--reload-query", ""], capture_output=True, text=True, timeout=60)
    assert opened.returncode == 0, opened.stderr
    with quarry.Client.connect(fixture_daemon.path, start=False) as client:
        client.set_settings("talks", {"searchableAttributes": ["name"],
                                      "attributesForFaceting": ["date", "recorded", "duration"]})
        client.save_objects("talks", TALKS)
    code, output = nvim(fixture_daemon, short_tmp, "joined_spec.lua")
    print(output)
    assert code == 0, output
    assert "3 passed, 0 failed, 0 skipped" in output


def test_the_picker_follows_a_session_changed_from_python(fixture_daemon, short_tmp):
    process = nvim(fixture_daemon, short_tmp, "follow_spec.lua", wait=False)
    ready = os.path.join(short_tmp, "picker-ready")
    deadline = time.monotonic() + 60
    while not os.path.exists(ready):
        assert process.poll() is None, process.stdout.read()
        assert time.monotonic() < deadline, "the picker never got ready"
        time.sleep(0.05)
    with quarry.Client.connect(fixture_daemon.path, start=False) as client:
        session = client.open_session("shared")
        session.set_query("pitt")
    output, _ = process.communicate(timeout=120)
    print(output)
    assert process.returncode == 0, output
    assert "1 passed" in output


ESTIMATED_WORDS = [f"c{a}{b}x" for a in "aeiou" for b in "bdfglmnprstvwyzk"]  # 80 words: more than Typesense's 4 prefix candidates


def test_the_picker_shows_an_estimate_then_the_exact_count(fixture_daemon, short_tmp):
    """Issue 30: on a cluster (the Typesense pass) "~N hits" first, then "1,200 hits"; embedded, never "~"."""
    with quarry.Client.connect(fixture_daemon.path, start=False) as client:
        client.set_settings("things", {"searchableAttributes": ["title"]})
        client.save_objects("things", [{"objectID": str(i), "title": f"{ESTIMATED_WORDS[i % 80]} item {i}"}
                                       for i in range(1200)])
    code, output = nvim(fixture_daemon, short_tmp, "estimates_spec.lua")
    print(output)
    assert code == 0, output
    assert "1 passed, 0 failed, 0 skipped" in output
