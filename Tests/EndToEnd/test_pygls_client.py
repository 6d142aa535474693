"""pygls's JsonRPCClient, which language-server test suites and pygls-based frontends use,
drives the daemon on stdio: it sends `"params": null` for `shutdown` and `exit`, and the
daemon must treat that as absent and exit cleanly."""
import asyncio

from pygls.client import JsonRPCClient

from harness import quarry_binary


def field(value, name):
    """pygls hands back results as dicts or as attribute objects, depending on the method."""
    return value[name] if isinstance(value, dict) else getattr(value, name)


def test_pygls_client_initializes_searches_and_shuts_down_cleanly(data_dir):
    async def main():
        client = JsonRPCClient()
        await client.start_io(quarry_binary(), "serve", "--data-dir", data_dir)
        protocol = client.protocol
        initialized = await asyncio.wait_for(protocol.send_request_async(
            "initialize", {"capabilities": {}, "clientInfo": {"name": "pygls"}}), 10)
        assert field(field(initialized, "serverInfo"), "name") == "quarry"
        protocol.notify("initialized", {})
        await asyncio.wait_for(protocol.send_request_async("saveObjects", {"index": "people", "objects": [
            {"objectID": "1", "name": "George Clooney"}, {"objectID": "2", "name": "Amal Clooney"}]}), 10)
        found = await asyncio.wait_for(protocol.send_request_async("search", {"index": "people", "query": "cloney"}), 10)
        assert field(found, "nbHits") == 2
        assert await asyncio.wait_for(protocol.send_request_async("shutdown"), 10) is None
        protocol.notify("exit")
        await asyncio.wait_for(client.stop(), 10)
        return client._server.returncode

    assert asyncio.run(main()) == 0
