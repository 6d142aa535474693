"""Import a dataset, open a session, type a query one keystroke at a time and
print each result set.  python3 typeahead.py INDEX FILE QUERY [SESSION]"""
import sys

from quarry import Client, hits_searcher

index, path, query = sys.argv[1:4]
session_name = sys.argv[4] if len(sys.argv) > 4 else "typeahead"
with Client.connect() as client:  # the shared daemon, started if absent
    client.import_file(index, path, progress=lambda p: print(f"\rimporting {p.percentage or 0}%", end=""))
    session = client.open_session(session_name, searchers=[hits_searcher(index, hits_per_page=3)])
    for length in range(1, len(query) + 1):
        version = session.set_query(query[:length])  # every frontend on the session sees this keystroke
        results = session.wait_results(version).hits
        print(f"\n{query[:length]!r}: {results.nb_hits} hit{'' if results.nb_hits == 1 else 's'}")
        for hit in results.hits:
            shown = next((hit.highlighted(name) for name in ("title", "name") if hit.highlighted(name)), hit.object_id)
            print("   ", shown)
