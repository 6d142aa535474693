"""What the end-to-end tests expect to differ when indices run on Typesense
(the tier `QUARRY_BACKEND=typesense`); outside that tier this file has no effect.

DIFFERENCES: a test listed here is marked xfail(strict=True) in the tier, so it
must fail there, and the list cannot go stale: once the backend matches the
embedded engine, the test passes, the run fails, and the entry must go.

The rule: a difference is listed only once it is documented in
protocol/backends.md ("Differences that remain") under its identifier (e.g.
"firstLetterTypo", the name `initialize` reports in capabilities.backend),
saying what a client sees and why Quarry cannot remove it. Collection in the
tier checks that the identifier occurs there. A test that merely fails on
Typesense is a bug to fix, not an entry.

NOT_APPLICABLE: tests of the embedded engine's own storage (its files on disk,
disk-full and crash recovery of its SQLite data) that have no meaning when the
index lives on a cluster; skipped in the tier, with the reason.

Keys match as substrings of the pytest node id, so write them from the file
name on: "test_facets.py::test_name" covers every parameter of the test,
"test_facets.py::test_name[lsp]" one of them. Values:
DIFFERENCES[key] = (difference id, reason); NOT_APPLICABLE[key] = reason.
"""

DIFFERENCES = {
    "test_read_your_writes.py::test_replace_delete_and_settings_are_seen_by_the_next_read": (
        "firstLetterTypo", "'amber' also finds the records that say 'ember' (one typo on Typesense, two in the engine)"),
    "test_facets.py::test_virtual_replica_relevant_sort": (
        "relevantSortBuckets", "relevant sort is Typesense's bucketed text score: no nbSortedHits"),
    "test_facets.py::test_list_indices_reports_memory_on_request": (
        "indexSizes", "the cluster reports no memory breakdown"),
    "test_export.py::test_browse_reads_past_the_pagination_limit": (
        "browseOrder", "browse pages follow a hash of the objectID, not objectID order"),
    "test_export.py::test_browse_interleaved_with_writes_follows_the_documented_rule": (
        "browseOrder", "the rule for records written during a browse is stated in the order ties rank in"),
    "test_readme_round_trip.py::test_a_copy_made_by_the_round_trip_answers_every_search_identically": (
        "browseOrder", "the export lists records in hash order, so the copy ranks ties in another order"),
    "test_export.py::test_export_then_import_recreates_the_index": (
        "browseOrder", "the exported file lists the records in browse order, not objectID order"),
    # clients/python/tests
    "test_async.py::test_get_objects_and_browse": ("browseOrder", "browse pages follow a hash of the objectID"),
    "test_client.py::test_get_objects_and_browse_every_record_past_the_pagination_limit": (
        "browseOrder", "browse pages follow a hash of the objectID"),
    "test_client.py::test_list_indices_reports_memory_on_request": ("indexSizes", "the cluster reports no memory breakdown"),
}

NOT_APPLICABLE = {
    "test_typesense_": "starts its own Typesense nodes; runs in the plain run",
    "test_cancellation_and_errors.py::test_storage_failure_when_the_store_fails":
        "breaks the embedded engine's SQLite store, which holds no index on this tier",
    "test_engine_durability.py::test_restart_reuses_the_derived_index_and_rebuilds_a_corrupt_one":
        "the embedded engine's derived files on disk",
    "test_faults.py::test_disk_full": "a full disk under the embedded engine's data directory",
    "test_faults.py::test_a_truncated_derived_file": "the embedded engine's derived files on disk",
    "test_faults.py::test_a_damaged_sqlite_page": "the embedded engine's SQLite pages",
    "test_faults.py::test_kill_9_while_a_merge_is_due": "the embedded engine's segment merges and derived files",
    "test_faults.py::test_kill_9_during_a_record_compaction": "the embedded engine's SQLite store and its compaction",
}


def apply(items, backends_doc):
    """Marks the collected tests of the tier: strict xfail for a listed difference (which must be
    documented in `backends_doc`), skip for what does not apply."""
    import re

    import pytest
    try:
        with open(backends_doc) as doc:
            documented = doc.read()
    except FileNotFoundError:
        documented = ""
    for key, (difference, _) in DIFFERENCES.items():
        if not re.search(rf"(?<![\w-]){re.escape(difference)}(?![\w-])", documented):
            raise pytest.UsageError(f"typesense_differences.py: {difference} ({key}) is not documented in "
                                    f"{backends_doc}; document a difference before listing it")
    for item in items:
        for key, reason in NOT_APPLICABLE.items():
            if key in item.nodeid:
                item.add_marker(pytest.mark.skip(reason=f"not applicable on Typesense: {reason}"))
        for key, (difference, reason) in DIFFERENCES.items():
            if key in item.nodeid:
                item.add_marker(pytest.mark.xfail(strict=True, reason=f"{difference}: {reason}"))
