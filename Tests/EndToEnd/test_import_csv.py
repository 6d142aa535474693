"""CSV quoting errors as `quarry import` reports them (issue 26, item 15), on the real binary:
1. a quote left open names the line where it opened and says a closing quote is missing, and
   nothing is imported;
2. a quote inside an unquoted field is an error (RFC 4180), and --skip-invalid imports the
   other rows."""
import json
import os
import subprocess

from harness import quarry_binary


def quarry(daemon, *args, check=True):
    done = subprocess.run([quarry_binary(), *args, "--socket", daemon.path], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def test_an_unclosed_quote_names_the_line_where_it_opened(daemon, short_tmp):
    rows = ["objectID,name,note"] + [f"{i},talk {i},plain" for i in range(1, 120)]
    rows[50] = '50,"Café naïve,plain'  # line 51: the quote never closes on its line
    rows.append('120,"🍕 quoted",x')  # line 121: the next quote
    path = write(os.path.join(short_tmp, "talks.csv"), "\n".join(rows) + "\n")
    done = quarry(daemon, "import", "talks", path, check=False)
    assert done.returncode != 0
    assert "line 51, column 2" in done.stderr, done.stderr
    assert "not closed on this line" in done.stderr and "line 121" in done.stderr
    assert "a closing quote is probably missing" in done.stderr
    listed = json.loads(quarry(daemon, "call", "listIndices").stdout)["items"]
    assert [item["name"] for item in listed] == []  # nothing was written


def test_a_stray_quote_in_an_unquoted_field_is_an_error(daemon, short_tmp):
    path = write(os.path.join(short_tmp, "people.csv"), 'objectID,height\n1,5\'10"\n2,"6\'1"""\n3,5\'2\n')
    done = quarry(daemon, "import", "people", path, check=False)
    assert done.returncode != 0
    assert "line 2, column 2" in done.stderr and "a quote inside an unquoted field" in done.stderr, done.stderr
    done = quarry(daemon, "import", "people", path, "--skip-invalid")
    assert "imported 2 records" in done.stdout and "skipped 1" in done.stdout
    found = json.loads(quarry(daemon, "call", "search", '{"index":"people","query":""}').stdout)
    assert sorted(hit["height"] for hit in found["hits"]) == ["5'2", "6'1\""]
