"""What the CLI says when the daemon refuses a request.

1. A person reads the message without protocol jargon (no `error -32602`, no `invalid params:`); the exit
   code is 1.
2. `--json` (and `quarry call`) keep the error object, code and data included, for scripts.
3. An index name that does not exist is answered with the closest existing one, by the daemon, so every
   client shows it (`data.didYouMean`); a name close to none gets no suggestion.
"""
import json
import subprocess

from harness import quarry_binary


def quarry(*args, socket_path):
    return subprocess.run([quarry_binary(), *args, "--socket", socket_path], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_an_unknown_index_is_named_with_the_closest_existing_one(daemon):
    client = daemon.connect()
    for name in ("talks", "speakers"):
        client.result("saveObjects", {"index": name, "objects": [{"objectID": "1", "name": "one"}]})
    done = quarry("search", "talkz", "ocean", socket_path=daemon.path)
    assert done.returncode == 1
    assert done.stderr == "quarry search: index 'talkz' does not exist; did you mean 'talks'?\n"

    done = quarry("search", "zzzzzzzz", socket_path=daemon.path)
    assert done.returncode == 1 and done.stderr == "quarry search: index 'zzzzzzzz' does not exist\n"

    reply = client.request("getSettings", {"index": "Speaker"})
    assert reply["error"]["code"] == -32602
    assert reply["error"]["data"] == {"parameter": "index", "didYouMean": "speakers"}
    assert reply["error"]["message"].endswith("does not exist; did you mean 'speakers'?")


def test_cli_messages_carry_no_protocol_jargon_but_json_keeps_the_code(daemon):
    client = daemon.connect()
    client.result("saveObjects", {"index": "talks", "objects": [{"objectID": "1", "name": "one"}]})
    done = quarry("search", "talks", "--params", '{"hitsPerPage": "many"}', socket_path=daemon.path)
    assert done.returncode == 1
    assert done.stderr == "quarry search: 'hitsPerPage' must be an integer between 0 and 1000\n", done.stderr

    done = quarry("search", "talkz", "--json", socket_path=daemon.path)
    assert done.returncode == 1
    error = json.loads(done.stderr)
    assert error["code"] == -32602 and error["data"] == {"parameter": "index", "didYouMean": "talks"}

    done = quarry("call", "search", '{"index":"talkz"}', socket_path=daemon.path)
    assert done.returncode == 1
    assert json.loads(done.stderr)["data"]["didYouMean"] == "talks"
