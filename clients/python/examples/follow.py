"""Follow a session: print its query and best hits whenever any frontend changes it.
python3 follow.py SESSION"""
import sys

from quarry import Client

with Client.connect() as client:
    session = client.open_session(sys.argv[1])
    for update in session.updates():
        results = update.hits
        print(f"[v{update.state_version}] {results.query!r}: {results.nb_hits} hit{'' if results.nb_hits == 1 else 's'}")
        for hit in results.hits[:3]:
            print("   ", hit.get("title") or hit.get("name") or hit.object_id)
