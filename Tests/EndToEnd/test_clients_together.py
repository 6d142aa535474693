"""Three frontends, one session (the README's demo, as a test): a Neovim
picker, the fzf frontend's reload command and a Python script attached to
the session "together"; each one's typing reaches the others."""
import os
import subprocess
import time

import pytest

from harness import quarry_binary
from test_clients_nvim import fixture_daemon, nvim, quarry  # noqa: F401  (fixtures and helpers shared)


def test_nvim_fzf_and_python_share_one_session(fixture_daemon, short_tmp):
    process = nvim(fixture_daemon, short_tmp, "together_spec.lua", wait=False)
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(short_tmp, "nvim-ready")):
        assert process.poll() is None, process.stdout.read()
        assert time.monotonic() < deadline, "the picker never got ready"
        time.sleep(0.05)
    with quarry.Client.connect(fixture_daemon.path, start=False) as client:
        session = client.open_session("together")
        with session.events(timeout=30) as events:
            # fzf's keystroke: what `quarry fzf` runs on each change of its query.
            typed = subprocess.run([quarry_binary(), "fzf", "people", "--session", "together", "--socket",
                                    fixture_daemon.path, "--reload-query", "brad"],
                                   capture_output=True, text=True, timeout=60)
            assert typed.returncode == 0, typed.stderr
            header, *lines = typed.stdout.splitlines()  # fzf's header line, then the hits
            assert [line.split("\t")[0] for line in lines] == ["3"]
            seen_brad = seen_amal = False
            for event in events:  # Python follows both: fzf's query, then the picker's
                if isinstance(event, quarry.StateChanged):
                    seen_brad = seen_brad or event.query == "brad"
                elif seen_brad and event.hits.query == "amal":
                    assert [hit.object_id for hit in event.hits.hits] == ["2"]
                    seen_amal = True
                    break
        assert seen_brad and seen_amal
        with open(os.path.join(short_tmp, "python-saw-amal"), "w") as marker:
            marker.write("yes\n")
    output, _ = process.communicate(timeout=120)
    print(output)
    assert process.returncode == 0, output
    assert "1 passed" in output
