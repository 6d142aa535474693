"""The asyncio client: the same API as the blocking one, and the same
behaviour against the real daemon (pytest runs each test with asyncio.run)."""
import asyncio
import inspect
import json
import os

import pytest

import quarry
from quarry import AsyncClient, AsyncSession, Client, Session


def public_methods(cls):
    return {name: member for name, member in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")}


@pytest.mark.parametrize("blocking, asynchronous", [(Client, AsyncClient), (Session, AsyncSession)])
def test_the_asyncio_api_mirrors_the_blocking_one(blocking, asynchronous):
    sync_methods = public_methods(blocking)
    async_methods = public_methods(asynchronous)
    internal = {"later", "invoke", "receive", "start", "connection_lost"}
    # updates()/events() subscribe at once in both (iterators, not generators), so they are plain methods in both.
    assert set(sync_methods) - internal == set(async_methods) - internal
    for name in set(sync_methods) - internal:
        sync_parameters = list(inspect.signature(sync_methods[name]).parameters)
        async_parameters = list(inspect.signature(async_methods[name]).parameters)
        assert sync_parameters == async_parameters, name
    for name in ("spawn", "connect"):
        if hasattr(blocking, name):
            sync_names = set(inspect.signature(getattr(blocking, name)).parameters) - {"options"}
            assert sync_names <= set(inspect.signature(getattr(asynchronous, name)).parameters)


def test_spawn_search_and_errors(binary, data_dir, people):
    async def main():
        async with AsyncClient.spawn(binary=binary, data_dir=data_dir) as client:
            assert client.position_encoding == "utf-32"
            await client.save_objects("people", people)
            response = await client.search("people", "clooney")
            assert {hit.object_id for hit in response.hits} == {"1", "2"}
            with pytest.raises(quarry.InvalidParams) as caught:
                await client.get_settings("nope")
            assert caught.value.parameter == "index"
            results = await asyncio.gather(*(client.search("people", query) for query in ["brad", "amal", ""]))
            assert [result.nb_hits for result in results] == [1, 1, 4]
            return client._process
    process = asyncio.run(main())
    assert process.returncode == 0


def test_await_form_and_progress(binary, data_dir, tmp):
    path = os.path.join(tmp, "rows.csv")
    with open(path, "w") as file:
        file.write("objectID,title\n" + "".join(f"{n},row {n}\n" for n in range(20000)))

    async def main():
        client = await AsyncClient.spawn(binary=binary, data_dir=data_dir)
        reports = []

        async def on_progress(report):
            reports.append(report.kind)
        result = await client.import_file("rows", path, progress=on_progress)
        await client.close()
        return result, reports
    result, reports = asyncio.run(main())
    assert result.imported == 20000
    assert reports[0] == "begin" and reports[-1] == "end"


def test_cancelling_the_task_cancels_the_import(binary, data_dir, tmp):
    path = os.path.join(tmp, "big.ndjson")
    with open(path, "w") as file:
        for number in range(300000):
            file.write(json.dumps({"objectID": str(number), "text": "lorem ipsum dolor sit amet " * 3}) + "\n")

    async def main():
        async with AsyncClient.spawn(binary=binary, data_dir=data_dir) as client:
            started = asyncio.Event()
            task = asyncio.ensure_future(client.import_file("big", path, progress=lambda report: started.set()))
            await started.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # The daemon rolled the import back: the index never appeared.
            return [index.name for index in await client.list_indices()]
    assert asyncio.run(main()) == []


def test_connect_shares_the_daemon(daemon, people):
    async def main():
        async with AsyncClient.connect(daemon.path, start=False) as first:
            await first.save_objects("people", people)
            async with AsyncClient.connect(daemon.path, start=False) as second:
                return (await second.search("people", "zola")).hits[0].object_id
    assert asyncio.run(main()) == "4"


def test_a_dead_daemon_fails_pending_calls(binary, data_dir):
    async def main():
        client = await AsyncClient.spawn(binary=binary, data_dir=data_dir)
        client._process.kill()
        await client._reading
        with pytest.raises(quarry.ConnectionLost):
            await client.search("people")
        await client.close()
    asyncio.run(main())


def test_get_objects_and_browse(binary, data_dir):
    async def main():
        async with AsyncClient.spawn(binary=binary, data_dir=data_dir) as client:
            records = [{"objectID": f"{n:04d}", "n": n} for n in range(1200)]
            await client.save_objects("numbers", records)
            assert [hit async for hit in client.browse_objects("numbers", numeric_filters=["n >= 1100"])] == records[1100:]
            assert await client.get_objects("numbers", ["0003", "x"]) == [records[3], None]
    asyncio.run(main())
