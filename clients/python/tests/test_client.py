"""The blocking client against the real daemon: index helpers, typed results,
progress, errors as exceptions, and opening/closing on pipes and sockets."""
import fcntl
import json
import os
import subprocess
import threading
import time

import pytest

import quarry
from quarry import Client


def test_initialize_negotiates_code_points_and_lists_methods(client):
    assert client.server_info.name == "quarry"
    assert client.server_info.protocol_version == "0.1"
    assert client.position_encoding == "utf-32", "Python's own string indices"
    assert "search" in client.server_info.methods


def test_utf16_can_be_asked_for(binary, data_dir):
    with Client.spawn(binary=binary, data_dir=data_dir, position_encodings=["utf-16"]) as client:
        assert client.position_encoding == "utf-16"


def test_save_search_and_typed_hits(client, people):
    saved = client.save_objects("people", people)
    assert saved.object_ids == ["1", "2", "3", "4"]
    assert saved.task_id >= 1
    response = client.search("people", "cloo", hits_per_page=5)
    assert isinstance(response, quarry.SearchResponse)
    assert response.nb_hits == 2
    assert response.hits_per_page == 5
    assert {hit.object_id for hit in response.hits} == {"1", "2"}
    hit = response.hits[0]
    assert isinstance(hit, quarry.Hit)
    assert hit["name"].endswith("Clooney")
    assert "_highlightResult" not in hit.record
    assert response.raw["query"] == "cloo"


def test_partial_update_delete_clear_and_delete_index(client, people):
    client.save_objects("people", people)
    client.partial_update_objects("people", [{"objectID": "3", "name": "William Bradley Pitt"}])
    assert client.search("people", "william").hits[0].get("popularity") == 9
    deleted = client.delete_objects("people", ["1", "404"])
    assert deleted.object_ids == ["1", "404"]
    assert client.search("people", "").nb_hits == 3
    client.clear_objects("people")
    assert client.search("people", "").nb_hits == 0
    assert [index.name for index in client.list_indices()] == ["people"]
    client.delete_index("people")
    assert client.list_indices() == []


def test_settings_round_trip_and_unsupported_names(client, people):
    client.save_objects("people", people)
    result = client.set_settings("people", {"customRanking": ["desc(popularity)"], "enableRules": True})
    assert result.unsupported == ["enableRules"]
    settings = client.get_settings("people")
    assert settings["customRanking"] == ["desc(popularity)"]


def test_list_indices_counts_records(client, people):
    client.save_objects("people", people)
    [info] = client.list_indices()
    assert (info.name, info.entries) == ("people", 4)
    assert info.memory is None


def test_list_indices_reports_memory_on_request(client, people):
    client.save_objects("people", people)
    [info] = client.list_indices(memory=True)
    assert info.memory is not None and info.memory["total"] == sum(info.memory["structures"].values()) > 0


def test_import_file_reports_progress_in_order(client, tmp):
    path = os.path.join(tmp, "many.ndjson")
    with open(path, "w") as file:
        for number in range(30000):
            file.write(json.dumps({"objectID": str(number), "title": f"record {number}"}) + "\n")
    reports = []
    result = client.import_file("many", path, progress=reports.append)
    assert result.imported == 30000 and result.index == "many"
    kinds = [report.kind for report in reports]
    assert kinds[0] == "begin" and kinds[-1] == "end" and set(kinds[1:-1]) <= {"report"}
    percentages = [report.percentage for report in reports]
    assert percentages == sorted(percentages) and percentages[-1] == 100
    assert client.search("many", "").nb_hits == 30000


def test_import_file_accepts_a_relative_path_and_settings(client, tmp, monkeypatch):
    monkeypatch.chdir(tmp)
    with open("people.json", "w") as file:
        json.dump([{"objectID": "a", "name": "Ada"}], file)
    result = client.import_file("rel", "people.json", settings={"searchableAttributes": ["name"]})
    assert result.imported == 1
    assert client.get_settings("rel")["searchableAttributes"] == ["name"]


def test_a_progress_callback_may_call_the_client(client, tmp):
    path = os.path.join(tmp, "small.json")
    with open(path, "w") as file:
        json.dump([{"objectID": "1", "name": "x"}], file)
    client.save_objects("other", [{"objectID": "1"}])
    seen = []
    client.import_file("small", path, progress=lambda report: seen.append(client.search("other").nb_hits))
    assert seen and set(seen) == {1}


def test_errors_carry_code_message_and_data(client):
    with pytest.raises(quarry.InvalidParams) as caught:
        client.search("missing", "x")
    error = caught.value
    assert error.code == -32602
    assert error.data == {"parameter": "index"} and error.parameter == "index"
    assert "missing" in error.message
    assert error.method == "search"
    with pytest.raises(quarry.InvalidParams) as caught:
        client.save_objects("people", [{"objectID": ""}])
    assert "record 1" in caught.value.message
    with pytest.raises(quarry.MethodNotFound) as caught:
        client.call("noSuchMethod")
    assert caught.value.code == -32601
    assert isinstance(caught.value, quarry.RpcError) and isinstance(caught.value, quarry.QuarryError)


def test_resource_errors_map_to_their_own_exceptions():
    from quarry.errors import rpc_error
    for code, cls, reason in ((-32010, quarry.DiskFull, "diskFull"), (-32011, quarry.StorageFailure, "storage"),
                              (-32012, quarry.ResourceExhausted, "resourceExhausted"),
                              (-32013, quarry.BackendUnavailable, "backendUnavailable")):
        error = rpc_error({"code": code, "message": "disk full: x", "data": {"reason": reason}}, "saveObjects")
        assert type(error) is cls and error.code == code and error.data == {"reason": reason}
        assert isinstance(error, quarry.RpcError)


def test_an_invalid_import_names_the_record(client, tmp):
    path = os.path.join(tmp, "bad.ndjson")
    with open(path, "w") as file:
        file.write('{"objectID":"1"}\n{"objectID":\n')
    with pytest.raises(quarry.InvalidParams) as caught:
        client.import_file("bad", path)
    assert "line 2" in caught.value.message


def test_concurrent_calls_from_threads_get_their_own_replies(client, people):
    client.save_objects("people", people)
    failures = []

    def search(query, expected):
        for _ in range(20):
            if client.search("people", query).nb_hits != expected:
                failures.append(query)

    threads = [threading.Thread(target=search, args=(query, count))
               for query, count in [("cloo", 2), ("brad", 1), ("", 4), ("zola", 1)]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_closing_a_spawned_client_ends_its_daemon_cleanly(binary, data_dir):
    client = Client.spawn(binary=binary, data_dir=data_dir)
    process = client._stream.process
    client.close()
    assert process.returncode == 0
    client.close()  # twice is harmless


def test_spawning_twice_on_one_data_directory_shares_one_daemon(binary, data_dir, people):
    first = Client.spawn(binary=binary, data_dir=data_dir)
    second = Client.spawn(binary=binary, data_dir=data_dir)
    try:
        assert first.server_info.raw["daemon"] == second.server_info.raw["daemon"], "the second forwards to the first"
        first.save_objects("people", people)
        assert second.search("people", "clooney").nb_hits == 2
        processes = [first._stream.process, second._stream.process]
    finally:
        first.close()   # the owner goes first: the second moves to a new daemon and still shuts down cleanly
        second.close()
    assert [process.returncode for process in processes] == [0, 0]
    # The second moved to a background daemon when the first went away: stop it and wait for it to let go.
    subprocess.run([binary, "stop", "--socket", os.path.join(data_dir, "quarry.sock")], capture_output=True,
                   timeout=20)
    wait_until_released(data_dir)


def wait_until_released(data_dir):
    """Waits (up to 10 s) for the daemon on `data_dir` to let go of it: a daemon told to stop still
    saves its indices before it exits, and removing the directory under it would race that save."""
    with open(os.path.join(data_dir, "LOCK"), "a") as lock:
        for _ in range(200):
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError:
                time.sleep(0.05)


def test_a_call_after_the_daemon_died_raises_connection_lost(binary, data_dir):
    client = Client.spawn(binary=binary, data_dir=data_dir)
    client._stream.process.kill()
    client._reader.join(5)
    with pytest.raises(quarry.ConnectionLost):
        client.search("people")
    client.close()


def test_connect_to_a_running_daemon_and_share_its_data(daemon, people):
    with Client.connect(daemon.path, start=False) as writer, Client.connect(daemon.path, start=False) as reader:
        writer.save_objects("people", people)
        assert reader.search("people", "pitt").hits[0].object_id == "3"
    assert daemon.process.poll() is None  # closing a socket client leaves the daemon running


def test_connect_starts_the_shared_daemon_if_absent(binary, tmp, people):
    path = os.path.join(tmp, "shared.sock")
    data = os.path.join(tmp, "shared-data")
    with Client.connect(path, binary=binary, data_dir=data) as first:
        first.save_objects("people", people)
        with Client.connect(path, binary=binary, data_dir=data) as second:
            assert second.search("people", "amal").nb_hits == 1
        first.call("stopServer")
    wait_until_released(data)
    assert os.path.exists(os.path.join(data, "daemon.log"))


def test_connect_without_start_fails_clearly(tmp):
    with pytest.raises(quarry.CannotConnect):
        Client.connect(os.path.join(tmp, "nobody.sock"), start=False)


def test_notifications_reach_listeners(client, tmp):
    path = os.path.join(tmp, "one.json")
    with open(path, "w") as file:
        json.dump([{"objectID": "1"}], file)
    seen = threading.Event()
    client.on_notification(lambda method, params: seen.set())
    client.call("importFile", {"index": "one", "path": path, "workDoneToken": "tok"})
    assert seen.wait(5)


def test_search_for_facet_values(client, people):
    if "searchForFacetValues" not in client.server_info.methods:
        pytest.skip("the daemon has no searchForFacetValues yet (engine part 2)")
    client.set_settings("people", {"attributesForFaceting": ["searchable(tags)"]})
    client.save_objects("people", people)
    response = client.search_for_facet_values("people", "tags", "act")
    assert isinstance(response, quarry.FacetSearchResponse)
    assert [(hit.value, hit.count) for hit in response.facet_hits] == [("actor", 2)]


def test_str_spans_convert_either_encoding_to_python_indices():
    text = "Émile 😀 Zola"
    assert quarry.str_spans(text, [(9, 13)], "utf-16") == [(8, 12)]  # the emoji is two UTF-16 units
    assert quarry.str_spans(text, [(12, 16)], "utf-8") == [(8, 12)]  # É is two bytes, the emoji four
    assert text[8:12] == "Zola"
    assert quarry.str_spans(text, [(1, 2), (0, 99)], "utf-8") == []  # inside É, past the end
    assert quarry.str_spans(text, [(8, 12), (10, 99)], "utf-32") == [(8, 12)]  # code points are Python's indices


def test_hit_spans_use_the_negotiated_encoding(client):
    client.save_objects("accents", [{"objectID": "1", "name": "Émile Zola"}])
    hit = client.search("accents", "zola").hits[0]
    if not hit.match_ranges:
        pytest.skip("the daemon returns no _matchRanges (engine-search not merged)")
    start, end = hit.spans("name", client.position_encoding)[0]
    assert hit["name"][start:end] == "Zola"


def test_get_objects_and_browse_every_record_past_the_pagination_limit(client):
    records = [{"objectID": f"{n:05d}", "title": f"record {n}", "even": n % 2 == 0} for n in range(1500)]
    client.save_objects("many", records)
    client.set_settings("many", {"attributesForFaceting": ["filterOnly(even)"]})
    assert client.search("many", "", hits_per_page=1000, page=1).hits == [], "search is capped"
    assert list(client.browse_objects("many")) == records
    evens = list(client.browse_objects("many", filters="even:true", hits_per_page=200,
                                       attributes_to_retrieve=["title"]))
    assert evens == [{"objectID": r["objectID"], "title": r["title"]} for r in records if r["even"]]
    page = client.browse("many", hits_per_page=10)
    assert (len(page.hits), page.nb_hits, page.cursor is not None) == (10, 1500, True)
    assert client.browse("many", page.cursor).hits[0]["objectID"] == "00010"

    assert client.get_objects("many", ["00007", "absent"]) == [records[7], None]
    assert client.get_objects("many", ["00001"], attributes_to_retrieve=["even"]) == [{"objectID": "00001", "even": False}]
    with pytest.raises(quarry.InvalidParams) as caught:
        client.browse("many", hits_per_page=5000)
    assert caught.value.parameter == "hitsPerPage"
