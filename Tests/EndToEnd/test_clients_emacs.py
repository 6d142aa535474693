"""The Emacs package's estimate display (issue 30) on a real Typesense node: its ERT test
`quarry-session-shows-an-estimate-then-the-exact-count`, given the node's `quarry serve` flags,
sees "~N" and then the exact "1,200" in the session buffer. scripts/test runs every ERT test on
the embedded engine, where the same test checks that no estimate is ever shown."""
import os
import shutil
import subprocess

import pytest

from harness import ROOT, quarry_binary


def test_the_session_buffer_shows_an_estimate_then_the_exact_count(typesense_node):
    if not shutil.which("emacs"):
        pytest.skip("emacs is needed (apt-get install emacs-nox)")
    environment = dict(os.environ, QUARRY_BIN=quarry_binary(),
                       QUARRY_TEST_TYPESENSE_FLAGS="\x1f".join(typesense_node.serve_args()))
    process = subprocess.run(
        ["emacs", "--batch", "-Q", "-L", os.path.join(ROOT, "clients", "emacs"),
         "-l", os.path.join(ROOT, "clients", "emacs", "tests", "quarry-tests.el"),
         "--eval", '(ert-run-tests-batch-and-exit "quarry-session-shows-an-estimate-then-the-exact-count")'],
        env=environment, capture_output=True, text=True, timeout=180)
    output = process.stdout + process.stderr
    typesense_node.delete_all_collections()
    assert process.returncode == 0, output
    assert "Ran 1 tests, 1 results as expected" in output, output
