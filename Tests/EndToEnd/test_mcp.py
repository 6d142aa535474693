"""`quarry mcp` driven by the official MCP Python SDK (`mcp`, pinned in requirements.txt), unmodified, through its
stdio client, against a private daemon holding TED-talks-shaped indices this file builds.

Checked here (protocol/mcp.md):
1. initialize negotiates the version: the client's when supported, else the latest; the server exits with 0
   when its stdin closes.
2. tools/list: every inputSchema and outputSchema is a valid JSON Schema, and every structuredContent below is
   valid against its tool's outputSchema (checked with jsonschema, beside the SDK's own check).
3. Each read tool answers on the talks data: list_indices, search (snippets, facet counts), multi_search,
   facet_values, get_objects, browse (cursor), index_settings, list_sessions; resources list and read.
4. show_in_session reaches a Python client attached to the session as a resultsUpdated push; read_session
   reports the query and filters that Python client set.
5. Writes are absent without --allow-writes (not listed, refused as -32602) and work with it.
6. Malformed arguments and unknown tools are -32602 naming the argument; an unknown index and a bad filter are
   tool results with isError and an actionable message (the closest index, the filter's position).
7. A search whose hits would exceed the reply bound is cut to it, with counts and a note whose paging advice
   leads to the hits left out.
8. A socket client that is not MCP is unaffected by an MCP client on the same daemon and session.
9. With no daemon running, the first tool call starts the user's daemon, which outlives `quarry mcp`; a call on a
   connection the daemon closed is a tool error, and the next call reconnects.
"""
import asyncio
import json
import os
import subprocess

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import quarry
from harness import TIMEOUT, SocketDaemon, quarry_binary

READ_TOOLS = {"list_indices", "search", "multi_search", "facet_values", "get_objects", "browse", "index_settings",
              "list_sessions", "read_session", "show_in_session"}
WRITE_TOOLS = {"save_objects", "delete_objects", "import_file"}
RESULT_BOUND = 24_000  # protocol/mcp.md, "Bounded replies"

TAGS = ["climate", "ocean", "brain", "technology", "design", "health", "cities", "music"]
SPEAKERS = ["Ada Lovelace", "Grace Hopper", "Rosalind Franklin", "Alan Turing", "Hedy Lamarr", "Carl Sagan"]
TOPICS = ["glaciers", "reefs", "neurons", "robots", "typography", "vaccines", "bridges", "symphonies"]


def talks(count=60):
    """TED talks' shape: a title, a speaker, a long description, tags, an event, a year and a duration."""
    records = []
    for i in range(count):
        tag = TAGS[i % len(TAGS)]
        records.append({
            "objectID": f"talk-{i}", "name": f"The future of {TOPICS[i % len(TOPICS)]} {i}",
            "speaker": SPEAKERS[i % len(SPEAKERS)],
            "description": (f"A talk about {tag} and {TOPICS[(i + 3) % len(TOPICS)]}. " + "Context and detail. " * 60
                            + f"It ends on {TOPICS[i % len(TOPICS)]}."),
            "tags": [tag, TAGS[(i + 1) % len(TAGS)]], "event": "TED2019" if i % 2 else "TEDxParis",
            "year": 2006 + i % 15, "duration": 300 + (i * 37) % 900,
        })
    return records


@pytest.fixture
def catalogue(daemon):
    admin = daemon.connect("ndjson")
    admin.result("setSettings", {"index": "talks", "settings": {
        "searchableAttributes": ["name", "speaker", "description", "tags"],
        "attributesForFaceting": ["searchable(tags)", "event", "year", "filterOnly(duration)", "speaker"]}})
    admin.result("saveObjects", {"index": "talks", "objects": talks()})
    admin.result("saveObjects", {"index": "speakers", "objects": [
        {"objectID": f"sp-{i}", "name": name, "talks": 10} for i, name in enumerate(SPEAKERS)]})
    admin.close()
    return daemon


def mcp(daemon, body, *extra):
    """Runs `body(session, initialize_result)` on a `quarry mcp` spawned by the SDK's stdio client."""
    async def main():
        server = StdioServerParameters(command=quarry_binary(), args=["mcp", "--socket", daemon.path, *extra])
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                initialized = await session.initialize()
                return await body(session, initialized)
    return asyncio.run(asyncio.wait_for(main(), 60))


async def schemas(session):
    return {tool.name: tool for tool in (await session.list_tools()).tools}


async def call(client, tools, name, /, **arguments):
    """A successful tool call whose structuredContent is checked against the tool's outputSchema."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    jsonschema.validate(result.structured_content, tools[name].output_schema)
    assert result.content and result.content[0].type == "text" and result.content[0].text
    return result.structured_content


def result_bytes(result):
    return len(json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True),
                          separators=(",", ":"), ensure_ascii=False).encode())


def test_initialize_negotiates_the_version(catalogue):
    async def body(session, initialized):
        return initialized
    initialized = mcp(catalogue, body)
    assert initialized.protocol_version == "2025-11-25"
    assert initialized.server_info.name == "quarry"
    assert initialized.capabilities.tools is not None and initialized.capabilities.resources is not None

    # Below the SDK: an older supported version is echoed, an unknown one answered with the latest.
    for asked, answered in [("2025-06-18", "2025-06-18"), ("2024-11-05", "2025-11-25"), ("2031-01-01", "2025-11-25")]:
        lines = raw_exchange(catalogue, [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}])
        assert lines[0]["result"]["protocolVersion"] == answered


def raw_exchange(daemon, messages):
    """Sends newline-delimited messages to `quarry mcp`, closes its stdin, and returns its replies; it must exit 0."""
    process = subprocess.run([quarry_binary(), "mcp", "--socket", daemon.path],
                             input="".join(json.dumps(m) + "\n" for m in messages).encode(),
                             capture_output=True, timeout=TIMEOUT)
    assert process.returncode == 0, process.stderr
    return [json.loads(line) for line in process.stdout.decode().splitlines()]


def test_exits_cleanly_when_stdin_closes_and_writes_only_json_rpc(catalogue):
    lines = raw_exchange(catalogue, [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "search", "arguments": {"index": "talks", "query": "reefs"}}},
    ])
    assert [line["id"] for line in lines] == [1, 2]
    assert lines[1]["result"]["structuredContent"]["nbHits"] > 0


def test_tools_list_schemas_are_valid(catalogue):
    async def body(session, _):
        return await schemas(session)
    tools = mcp(catalogue, body)
    assert set(tools) == READ_TOOLS
    for tool in tools.values():
        for schema in (tool.input_schema, tool.output_schema):
            jsonschema.Draft202012Validator.check_schema(schema)
            assert schema["type"] == "object"
        assert tool.description


def test_each_read_tool_on_the_talks(catalogue):
    async def body(session, _):
        tools = await schemas(session)
        out = {"list_indices": await call(session, tools, "list_indices")}
        out["search"] = await call(session, tools, "search", index="talks", query="reefs", facets=["tags", "event"],
                                   hitsPerPage=5)
        out["filtered"] = await call(session, tools, "search", index="talks", query="",
                                     filters="tags:ocean AND duration > 600", attributesToRetrieve=["name", "duration"])
        out["multi"] = await call(session, tools, "multi_search", queries=[
            {"index": "talks", "query": "glaciers"}, {"index": "speakers", "query": "grace"}])
        out["facet_values"] = await call(session, tools, "facet_values", index="talks", facet="tags", facetQuery="clim")
        out["get_objects"] = await call(session, tools, "get_objects", index="talks",
                                        objectIDs=["talk-3", "missing", "talk-4"], attributesToRetrieve=["name"])
        pages, cursor = [], None
        while True:
            arguments = {"index": "talks", "hitsPerPage": 7, "attributesToRetrieve": ["name"]}
            if cursor:
                arguments["cursor"] = cursor
            page = await call(session, tools, "browse", **arguments)
            pages.append(page)
            cursor = page.get("cursor")
            if not cursor:
                break
        out["browse"] = pages
        out["settings"] = await call(session, tools, "index_settings", index="talks")
        out["resources"] = (await session.list_resources()).resources
        out["resource"] = (await session.read_resource("quarry://indices/talks/settings")).contents
        return out
    out = mcp(catalogue, body)

    indices = {index["name"]: index for index in out["list_indices"]["indices"]}
    assert indices["talks"]["records"] == 60 and indices["speakers"]["records"] == len(SPEAKERS)
    assert set(indices["talks"]["facets"]) == {"tags", "event", "year", "duration", "speaker"}
    assert indices["talks"]["searchableAttributes"] == ["name", "speaker", "description", "tags"]

    search = out["search"]
    expected = {f"talk-{i}" for i in range(60) if i % len(TOPICS) == 1 or (i + 3) % len(TOPICS) == 1}
    assert search["nbHits"] == len(expected)
    assert {hit["objectID"] for hit in search["hits"]} <= expected and len(search["hits"]) == 5
    for hit in search["hits"]:
        assert len(hit["description"]) <= 310, "a long field is cut to a snippet"
        assert "<em>" in hit["description"] or "<em>" in hit["name"]
    talk_tags = [tag for i in range(60) if f"talk-{i}" in expected for tag in talks()[i]["tags"]]
    assert search["facets"]["tags"] == {tag: talk_tags.count(tag) for tag in set(talk_tags)}
    assert sum(search["facets"]["event"].values()) == len(expected)

    filtered = out["filtered"]
    expected_filtered = [r for r in talks() if "ocean" in r["tags"] and r["duration"] > 600]
    assert filtered["nbHits"] == len(expected_filtered)
    assert all(set(hit) == {"objectID", "name", "duration"} and hit["duration"] > 600 for hit in filtered["hits"])

    talks_part, speakers_part = out["multi"]["results"]
    assert talks_part["index"] == "talks" and talks_part["nbHits"] > 0
    assert [hit["name"] for hit in speakers_part["hits"]] == ["Grace Hopper"]

    assert out["facet_values"]["facetHits"] == [{"value": "climate", "count": sum("climate" in r["tags"] for r in talks())}]

    objects = out["get_objects"]["objects"]
    assert [o and o["objectID"] for o in objects] == ["talk-3", None, "talk-4"]
    assert objects[0] == {"objectID": "talk-3", "name": talks()[3]["name"]}

    browsed = [hit["objectID"] for page in out["browse"] for hit in page["hits"]]
    assert sorted(browsed) == sorted(r["objectID"] for r in talks()) and len(out["browse"]) == 9

    assert out["settings"]["settings"]["attributesForFaceting"][0] == "searchable(tags)"
    uris = {str(resource.uri) for resource in out["resources"]}
    assert {"quarry://indices/talks/settings", "quarry://indices/speakers/settings"} <= uris
    assert json.loads(out["resource"][0].text) == out["settings"]["settings"]


def test_show_in_session_is_pushed_to_an_attached_python_client(catalogue):
    client = quarry.Client.connect(catalogue.path, start=False)
    picker = client.open_session("picker", searchers=[quarry.hits_searcher("talks", hitsPerPage=5, facets=["tags"])])
    picker.wait_results()

    async def body(session, _):
        tools = await schemas(session)
        shown = await call(session, tools, "show_in_session", session="picker", query="glaciers",
                           filters="tags:ocean OR tags:brain")
        listed = await call(session, tools, "list_sessions")
        return shown, listed
    shown, listed = mcp(catalogue, body)
    try:
        pushed = picker.wait_results(shown["stateVersion"])
        assert pushed.state_version == shown["stateVersion"]
        assert pushed.hits.query == "glaciers" == shown["query"]
        assert pushed.hits.nb_hits == shown["results"][0]["nbHits"] > 0
        assert [hit["objectID"] for hit in shown["results"][0]["hits"]] == [hit.object_id for hit in pushed.hits.hits]
        assert all({"ocean", "brain"} & set(talks()[int(hit.object_id.split("-")[1])]["tags"]) for hit in pushed.hits.hits)
        assert "ocean" in picker.state.filters and "brain" in picker.state.filters
        sessions = {row["session"]: row for row in listed["sessions"]}
        assert sessions["picker"]["attached"] == 2  # the Python client and quarry mcp
    finally:
        client.close()


def test_read_session_reports_what_a_python_client_set(catalogue):
    client = quarry.Client.connect(catalogue.path, start=False)
    picker = client.open_session("reading", searchers=[quarry.hits_searcher("talks", hitsPerPage=3, facets=["event"])])
    picker.toggle_filter(quarry.facet_filter("event", "TED2019"), group="event")
    version = picker.set_query("neurons")
    expected = picker.wait_results(version)

    async def body(session, _):
        tools = await schemas(session)
        return await call(session, tools, "read_session", session="reading")
    try:
        seen = mcp(catalogue, body)
        assert seen["query"] == "neurons" and "TED2019" in seen["filters"]
        assert seen["stateVersion"] >= version
        result = seen["results"][0]
        assert result["nbHits"] == expected.hits.nb_hits > 0
        assert [hit["objectID"] for hit in result["hits"]] == [hit.object_id for hit in expected.hits.hits]
        assert {entry["value"]: entry["count"] for entry in result["facets"]["event"]}["TED2019"] == expected.hits.nb_hits
    finally:
        client.close()


def test_session_tools_explain_what_is_missing(catalogue):
    async def body(session, _):
        tools = await schemas(session)
        missing = await session.call_tool("read_session", {"session": "nowhere"})
        uncreated = await session.call_tool("show_in_session", {"session": "fresh", "query": "reefs"})
        bad_filter = await session.call_tool("show_in_session", {"session": "fresh", "index": "talks", "filters": "tags:ocean AND ("})
        created = await call(session, tools, "show_in_session", session="fresh", index="talks", query="reefs")
        return missing, uncreated, bad_filter, created
    missing, uncreated, bad_filter, created = mcp(catalogue, body)
    assert missing.is_error and "no session is named `nowhere`" in missing.content[0].text
    assert uncreated.is_error and "Give `index` to create it" in uncreated.content[0].text
    assert bad_filter.is_error and "at character 16" in bad_filter.content[0].text
    assert created["query"] == "reefs" and created["results"][0]["nbHits"] > 0


def test_writes_are_absent_without_allow_writes(catalogue):
    async def body(session, _):
        names = set(await schemas(session))
        with pytest.raises(MCPError) as refused:
            await session.call_tool("save_objects", {"index": "talks", "objects": [{"objectID": "x"}]})
        return names, refused.value
    names, refused = mcp(catalogue, body)
    assert not names & WRITE_TOOLS
    assert refused.code == -32602 and "--allow-writes" in refused.message


def test_writes_with_allow_writes(catalogue, short_tmp):
    path = os.path.join(short_tmp, "more.ndjson")
    with open(path, "w") as f:
        for i in range(5):
            f.write(json.dumps({"objectID": f"new-{i}", "name": f"Volcanoes {i}", "tags": ["earth"]}) + "\n")

    async def body(session, _):
        tools = await schemas(session)
        assert WRITE_TOOLS <= set(tools)
        saved = await call(session, tools, "save_objects", index="talks",
                           objects=[{"objectID": "w1", "name": "Tardigrades in space", "tags": ["science"]}])
        found = await call(session, tools, "search", index="talks", query="tardigrades")
        deleted = await call(session, tools, "delete_objects", index="talks", objectIDs=["w1"])
        gone = await call(session, tools, "search", index="talks", query="tardigrades")
        imported = await call(session, tools, "import_file", index="volcanoes", path=path)
        relative = await session.call_tool("import_file", {"index": "volcanoes", "path": "more.ndjson"})
        counted = await call(session, tools, "search", index="volcanoes", query="volcanoes")
        return saved, found, deleted, gone, imported, relative, counted
    saved, found, deleted, gone, imported, relative, counted = mcp(catalogue, body, "--allow-writes")
    assert saved["objectIDs"] == ["w1"] and [hit["objectID"] for hit in found["hits"]] == ["w1"]
    assert deleted["objectIDs"] == ["w1"] and deleted["taskID"] > saved["taskID"] and gone["nbHits"] == 0
    assert imported["imported"] == 5 and counted["nbHits"] == 5
    assert relative.is_error and "absolute" in relative.content[0].text


def test_bad_arguments_are_invalid_params(catalogue):
    async def body(session, _):
        errors = []
        for name, arguments in [("search", {"index": "talks", "hitsPerPage": "10"}), ("search", {"query": "x"}),
                                ("search", {"index": "talks", "hitsPerPag": 5}),
                                ("multi_search", {"queries": [{"index": "talks"}, {"index": 3}]}),
                                ("no_such_tool", {})]:
            with pytest.raises(MCPError) as raised:
                await session.call_tool(name, arguments)
            errors.append(raised.value)
        return errors
    errors = mcp(catalogue, body)
    assert all(error.code == -32602 for error in errors)
    assert [error.data["parameter"] for error in errors] == [
        "arguments.hitsPerPage", "arguments.index", "arguments.hitsPerPag", "arguments.queries[1].index", "name"]
    assert "must be an integer" in errors[0].message and "no_such_tool" in errors[4].message


def test_search_problems_are_tool_errors_a_model_can_act_on(catalogue):
    async def body(session, _):
        unknown = await session.call_tool("search", {"index": "talk", "query": "reefs"})
        bad_filter = await session.call_tool("search", {"index": "talks", "filters": "tags:ocean AND ("})
        unfaceted = await session.call_tool("search", {"index": "talks", "filters": "name:reefs"})
        return unknown, bad_filter, unfaceted
    unknown, bad_filter, unfaceted = mcp(catalogue, body)
    assert unknown.is_error and "Did you mean `talks`?" in unknown.content[0].text
    assert bad_filter.is_error and "at 16" in bad_filter.content[0].text and "Algolia" in bad_filter.content[0].text
    assert unfaceted.is_error and "attributesForFaceting" in unfaceted.content[0].text


def test_a_search_is_cut_to_the_reply_bound(catalogue):
    admin = catalogue.connect("ndjson")
    admin.result("saveObjects", {"index": "wide", "objects": [
        {"objectID": f"w{i:03}", "title": f"wide record {i}", **{f"field{k}": f"{k} " + "x" * 250 for k in range(12)}}
        for i in range(100)]})
    everything = admin.result("search", {"index": "wide", "query": "wide", "hitsPerPage": 100,
                                         "attributesToRetrieve": ["title"]})
    admin.close()
    order = [hit["objectID"] for hit in everything["hits"]]

    async def body(session, _):
        tools = await schemas(session)
        cut = await session.call_tool("search", {"index": "wide", "query": "wide", "hitsPerPage": 100})
        jsonschema.validate(cut.structured_content, tools["search"].output_schema)
        kept = cut.structured_content["returnedHits"]
        following = await call(session, tools, "search", index="wide", query="wide", hitsPerPage=kept, page=1,
                               attributesToRetrieve=["title"])
        return cut, following
    cut, following = mcp(catalogue, body)
    content = cut.structured_content
    assert result_bytes(cut) <= RESULT_BOUND
    assert content["nbHits"] == 100 and content["omittedHits"] > 0
    assert content["returnedHits"] + content["omittedHits"] == 100
    kept = content["returnedHits"]
    assert f"hitsPerPage {kept} and page 1" in content["note"] and "left out" in cut.content[0].text
    assert [hit["objectID"] for hit in content["hits"]] == order[:kept]
    assert [hit["objectID"] for hit in following["hits"]] == order[kept:2 * kept]


def test_socket_clients_are_unaffected(catalogue):
    peer = catalogue.connect("lsp")
    peer.result("openSession", {"session": "shared", "searchers": [{"type": "hits", "index": "talks", "hitsPerPage": 2}]})
    before = peer.result("search", {"index": "talks", "query": "reefs"})

    async def body(session, _):
        tools = await schemas(session)
        await call(session, tools, "search", index="talks", query="reefs")
        return await call(session, tools, "show_in_session", session="shared", query="robots")
    shown = mcp(catalogue, body)

    # The socket client heard the change as any frontend would, and its own requests answer as before.
    def pushed_results():
        return [n for n in peer.notifications if n.get("method") == "resultsUpdated"
                and n["params"]["stateVersion"] >= shown["stateVersion"]]
    while not pushed_results():
        message = peer.receive(TIMEOUT)
        assert message is not None, "no resultsUpdated reached the socket client"
        if "method" in message:
            peer.notifications.append(message)
    assert pushed_results()[-1]["params"]["results"][0]["query"] == "robots"
    assert peer.result("search", {"index": "talks", "query": "reefs"})["hits"] == before["hits"]
    sessions = {row["session"]: row for row in peer.result("listSessions")["sessions"]}
    assert sessions["shared"]["attached"] == 1, "quarry mcp detached when it exited"
    peer.close()


def test_starts_the_users_daemon_when_none_answers(short_tmp):
    """With no daemon on the data directory, the first tool call starts one in the background, as the other
    client commands do; what the agent writes there is the user's."""
    data_dir = os.path.join(short_tmp, "own")
    socket_path = os.path.join(data_dir, "quarry.sock")
    # The SDK passes the server a minimal environment; the Typesense tier's config directory must reach the daemon.
    environment = {key: os.environ[key] for key in ("XDG_CONFIG_HOME",) if key in os.environ}

    async def body(session, _):
        tools = await schemas(session)
        await call(session, tools, "save_objects", index="notes", objects=[{"objectID": "n1", "text": "buy coffee"}])
        return await call(session, tools, "search", index="notes", query="coffee")

    async def main():
        server = StdioServerParameters(command=quarry_binary(), args=["mcp", "--data-dir", data_dir, "--allow-writes"],
                                       env=environment)
        async with stdio_client(server) as (read, write):
            async with ClientSession(read, write) as session:
                return await body(session, await session.initialize())
    try:
        found = asyncio.run(asyncio.wait_for(main(), 60))
        assert [hit["objectID"] for hit in found["hits"]] == ["n1"]
        client = quarry.Client.connect(socket_path, start=False)
        assert client.search("notes", "coffee").nb_hits == 1, "the daemon outlives quarry mcp and keeps the record"
        client.close()
    finally:
        subprocess.run([quarry_binary(), "stop", "--socket", socket_path], capture_output=True, timeout=TIMEOUT)


def test_a_restarted_daemon_is_reconnected(catalogue, data_dir):
    """A call on a connection the daemon closed is a tool error saying so; the next call connects again."""
    async def body(session, _):
        tools = await schemas(session)
        before = await call(session, tools, "search", index="talks", query="reefs")
        assert catalogue.terminate() == 0
        restarted = SocketDaemon(data_dir, catalogue.path)
        try:
            lost = await session.call_tool("search", {"index": "talks", "query": "reefs"})
            after = await call(session, tools, "search", index="talks", query="reefs")
        finally:
            restarted.kill()
        return before, lost, after
    before, lost, after = mcp(catalogue, body)
    assert lost.is_error and "the next call starts or reconnects" in lost.content[0].text
    assert after["nbHits"] == before["nbHits"] > 0


def test_malformed_lines_get_json_rpc_errors_and_the_server_goes_on(catalogue):
    process = subprocess.run([quarry_binary(), "mcp", "--socket", catalogue.path], input=b"\n".join([
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}',
        b"{not json", b"\xff\xfe", b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]', b'{"jsonrpc":"2.0","id":{},"method":"ping"}',
        b'{"jsonrpc":"2.0","id":3,"method":"no/such"}', b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}',
        b'{"jsonrpc":"2.0","id":5,"method":"ping"}', b""]), capture_output=True, timeout=TIMEOUT)
    assert process.returncode == 0, process.stderr
    replies = [json.loads(line) for line in process.stdout.decode().splitlines()]
    assert [(reply["id"], reply.get("error", {}).get("code")) for reply in replies] == [
        (1, None), (None, -32700), (None, -32700), (None, -32600), (None, -32600), (3, -32601), (4, -32602), (5, None)]
