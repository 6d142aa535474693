"""Estimates, then exact counts (protocol/methods/resultsUpdated.md), as the Python client shows
them. On the Typesense pass a one-letter prefix over 80 words starting with it (more than
Typesense's default 4 prefix candidates) is first answered with estimates: the update says so
(``exhaustive`` False), the hits read ``~… hits``, and the same version's exact update replaces
them with every record counted. On the embedded backend the first update is already exact."""
import os
import time

from quarry import Client, hits_searcher

WORDS = [f"c{a}{b}x" for a in "aeiou" for b in "bdfglmnprstvwyzk"]
RECORDS = [{"objectID": str(i), "title": f"{WORDS[i % len(WORDS)]} item {i}"} for i in range(1200)]
ON_TYPESENSE = os.environ.get("QUARRY_BACKEND") == "typesense"


def test_an_estimate_shows_as_one_and_the_exact_count_replaces_it(daemon):
    with Client.connect(daemon.path, start=False, timeout=30) as client:
        client.set_settings("things", {"searchableAttributes": ["title"]})
        client.save_objects("things", RECORDS)
        session = client.open_session("picker", searchers=[hits_searcher("things", hits_per_page=5)])
        seen = []
        session.on_results(lambda update: seen.append(update))
        version = session.set_query("c")
        exact = session.wait_results(version, exact=True, timeout=30)
        assert exact.state_version == version and exact.exhaustive
        assert exact.hits.exhaustive_nb_hits and exact.hits.nb_hits == 1200
        assert exact.hits.hits_text == "1,200 hits"
        ours = lambda: [u for u in seen if u.state_version == version]
        deadline = time.monotonic() + 10
        while len(ours()) < (2 if ON_TYPESENSE else 1) and time.monotonic() < deadline:
            time.sleep(0.01)  # callbacks run after the wait returns
        ours = ours()
        if ON_TYPESENSE:
            first = ours[0]
            assert not first.exhaustive and not first.hits.exhaustive_nb_hits
            assert first.hits.nb_hits < 1200
            assert first.hits.hits_text == f"~{first.hits.nb_hits:,} hits"
            assert [u.exhaustive for u in ours] == [False, True]
        else:
            assert [u.exhaustive for u in ours] == [True]
        assert session.results.exhaustive and session.results.hits.hits_text == "1,200 hits"
