"""The README's examples, run against a real daemon: each `print(...)  # output`
line must print what its comment says (Python literals compare by value, so a
dict's order does not matter); the example scripts it lists, run as scripts."""
import ast
import contextlib
import io
import json
import os
import re
import subprocess
import sys

README = os.path.join(os.path.dirname(__file__), "..", "README.md")
EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def python_blocks(heading):
    with open(README, encoding="utf-8") as readme:
        text = readme.read()
    assert f"\n## {heading}\n" in text, f"no section {heading!r} in the README"
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def as_value(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def test_the_facets_and_paging_example_prints_what_it_says(daemon, monkeypatch):
    blocks = python_blocks("Facets and paging")
    assert len(blocks) == 1
    code = blocks[0]
    expected = re.findall(r"^\s*print\(.*\)\s+# (.+)$", code, re.M)
    assert len(expected) == 4
    monkeypatch.setenv("QUARRY_SOCK", daemon.path)  # what Client.connect() reaches, as a user's shell would set it
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "README.md", "exec"), {})
    printed = output.getvalue().splitlines()
    assert [as_value(line) for line in printed] == [as_value(line) for line in expected], printed


def test_the_typeahead_example_counts_hits_in_english(daemon, tmp, people):
    with open(os.path.join(tmp, "people.json"), "w", encoding="utf-8") as records:
        json.dump(people, records)
    run = subprocess.run([sys.executable, os.path.join(EXAMPLES, "typeahead.py"), "people",
                          os.path.join(tmp, "people.json"), "brad"],
                         env=dict(os.environ, QUARRY_SOCK=daemon.path), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "'brad': 1 hit\n" in run.stdout, run.stdout
    assert "1 hits" not in run.stdout
