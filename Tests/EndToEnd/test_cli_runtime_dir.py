"""Without XDG_RUNTIME_DIR the default socket falls back to a private directory under $TMPDIR.

1. The client command that starts the background daemon says so once; later commands do not repeat it.
2. The daemon's log says it once too.
"""
import os
import subprocess

from harness import quarry_binary

WARNING = "XDG_RUNTIME_DIR is not set"


def test_the_runtime_dir_warning_is_said_once_when_the_daemon_starts(short_tmp):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("XDG_RUNTIME_DIR", "QUARRY_SOCK", "XDG_DATA_HOME")}
    environment.update(TMPDIR=short_tmp, XDG_DATA_HOME=os.path.join(short_tmp, "data"))

    def quarry(*args):
        return subprocess.run([quarry_binary(), *args], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, env=environment)

    try:
        first = quarry("call", "listIndices")
        assert first.returncode == 0, first.stderr
        assert first.stderr.count(WARNING) == 1, first.stderr
        for args in (("call", "listIndices"), ("search", "missing")):
            later = quarry(*args)
            assert WARNING not in later.stderr, later.stderr
    finally:
        stopped = quarry("stop")
    assert stopped.returncode == 0 and WARNING not in stopped.stderr + stopped.stdout, stopped.stderr
    assert f"/quarry-{os.getuid()}/quarry.sock" in stopped.stdout
    with open(os.path.join(short_tmp, "data", "quarry", "daemon.log")) as log:
        assert log.read().count(WARNING) == 1
