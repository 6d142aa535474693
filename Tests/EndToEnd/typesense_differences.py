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

DIFFERENCES = {}

NOT_APPLICABLE = {}
