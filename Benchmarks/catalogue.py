"""A deterministic product catalogue that looks like users' data: real English words
drawn from the text of ../shared/data with their real (Zipf-like) frequencies, names of
2–6 words, descriptions of 20–60 words, 2,000 brands, a 3-level category tree, tags,
prices and ratings: records of 400–800 bytes.

    python3 Benchmarks/catalogue.py 1000000 > catalogue.ndjson
"""
import json
import os
import random
import re
import sys
from collections import Counter

SHARED_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data")
WORD = re.compile(r"[a-z][a-z'-]{1,20}")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def vocabulary(data_dir=SHARED_DATA):
    """(words, cumulative weights) from every string in the shared datasets, URLs left out."""
    counts = Counter()
    for root, _, files in os.walk(data_dir):
        for name in sorted(files):
            if not name.endswith(".json") or "settings" in name:
                continue
            with open(os.path.join(root, name), encoding="utf-8") as f:
                try:
                    data = json.load(f)
                except ValueError:
                    continue
            for text in _strings(data):
                if "://" in text:
                    continue
                counts.update(WORD.findall(text.lower()))
    if len(counts) < 1000:
        raise SystemExit(f"too small a vocabulary in {data_dir}: {len(counts)} words")
    words = [word for word, _ in counts.most_common()]
    weights = [count for _, count in counts.most_common()]
    return words, weights


def records(count, seed=7):
    rng = random.Random(seed)
    words, weights = vocabulary()
    cumulative = []
    total = 0
    for weight in weights:
        total += weight
        cumulative.append(total)

    def draw(n):
        return rng.choices(words, cum_weights=cumulative, k=n)

    # Brands and categories are made of rarer words, as real ones are.
    tail = words[200:]
    brands = sorted({" ".join(rng.sample(tail, rng.choice([1, 1, 2]))).title() for _ in range(2400)})[:2000]
    tops = [w.title() for w in rng.sample(tail, 12)]
    tree = {top: {w.title(): [x.title() for x in rng.sample(tail, 6)] for w in rng.sample(tail, 8)} for top in tops}
    for n in range(count):
        top = rng.choice(tops)
        middle = rng.choice(list(tree[top]))
        leaf = rng.choice(tree[top][middle])
        name = " ".join(draw(rng.randint(2, 6))).capitalize()
        yield {
            "objectID": f"p{n:07d}",
            "name": name,
            "description": " ".join(draw(rng.randint(20, 60))).capitalize() + ".",
            "brand": brands[min(len(brands) - 1, int(rng.paretovariate(1.2)) - 1)],
            "categories": {"lvl0": top, "lvl1": f"{top} > {middle}", "lvl2": f"{top} > {middle} > {leaf}"},
            "tags": sorted(set(draw(rng.randint(1, 5)))),
            "price": round(rng.lognormvariate(3.5, 1.0), 2),
            "rating": rng.randint(1, 5),
            "popularity": int(rng.paretovariate(1.0) * 10),
            "in_stock": rng.random() < 0.8,
        }


if __name__ == "__main__":
    out = sys.stdout
    for record in records(int(sys.argv[1]) if len(sys.argv) > 1 else 10000):
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
