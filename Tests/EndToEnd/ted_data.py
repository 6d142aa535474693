"""A TED-talks-shaped data set for the tests that run the README's examples, written where the README
expects it (`../shared/data/tedtalks/`, relative to a working directory the test makes), so that no test
needs the shared data: records with a name, speakers, an event, tags, a Unix date and a duration range,
and settings in the shape Algolia exports them (legacy `attributesToIndex` and `slaves`, `distinct` on
speakers, `customRanking` on the date, which many talks share, so that ties are common)."""
import json
import os
import random

SUBJECTS = ["climate change", "the brain", "ocean life", "music", "the city", "happiness", "robots", "the universe",
            "learning", "water", "food", "memory", "the future of work", "coral reefs", "language", "sleep"]
OPENINGS = ["Why", "How", "What", "The truth about", "A new way to think about", "What we know about",
            "The hidden power of", "Rethinking", "The surprising science of", "Lessons from"]
TAGS = ["climate change", "environment", "brain", "neuroscience", "oceans", "biology", "music", "performance",
        "cities", "design", "psychology", "happiness", "technology", "robots", "science", "astronomy",
        "education", "water", "food", "health", "memory", "work", "business", "animals", "language", "culture",
        "sleep", "medicine", "energy", "innovation", "art", "history", "physics", "society", "children",
        "global issues", "sustainability", "creativity", "communication", "future"]
TAG_ONLY = ["climate change", "brain"]  # tags that some talks hold without naming them
EVENTS = [f"TED{year}" for year in range(2006, 2018)] + [f"TEDGlobal {year}" for year in range(2009, 2014)] + [
    f"TEDx{city}" for city in ("Amsterdam", "Berlin", "Boston", "Lagos", "Oslo", "Paris", "Sydney", "Tokyo")]
FIRST = ["Ada", "Amal", "Ben", "Chen", "Dina", "Emil", "Farah", "Grace", "Hugo", "Ines", "Jonas", "Kemi", "Luis",
         "Maya", "Noor", "Omar", "Priya", "Rosa", "Sami", "Tess", "Umar", "Vera", "Wen", "Yara", "Zoe"]
LAST = ["Adams", "Baker", "Costa", "Dubois", "Eze", "Fischer", "Garcia", "Haddad", "Ito", "Jensen", "Kim",
        "Lopez", "Mensah", "Novak", "Okafor", "Park", "Quinn", "Rossi", "Singh", "Tanaka"]
LANGUAGES = ["en", "fr", "es", "de", "ja", "pt", "ar", "zh-cn"]
REPLICAS = ["talks_date_asc", "talks_viewed_count_desc", "talks_popularity_score_desc"]

SETTINGS = {
    "minWordSizefor1Typo": 3,
    "minWordSizefor2Typos": 7,
    "hitsPerPage": 20,
    "maxValuesPerFacet": 100,
    "attributesToIndex": ["unordered(name)", "speakers", "event_name", "tags"],
    "distinct": True,
    "attributeForDistinct": "speakers",
    "slaves": REPLICAS,
    "attributesForFaceting": ["date", "duration_range", "searchable(tags)", "searchable(speakers)",
                              "searchable(event_name)", "searchable(languages)"],
    "attributesToSnippet": ["speakers:15"],
    "paginationLimitedTo": 1000,
    "ranking": ["typo", "geo", "words", "filters", "proximity", "attribute", "exact", "custom"],
    "customRanking": ["desc(date)"],
    "queryType": "prefixLast",
    "highlightPreTag": "<em>",
    "highlightPostTag": "</em>",
}


def talks(count=1500, seed=7):
    """`count` talks; dates fall on 60 event days, so many talks tie on every ranking criterion."""
    rng = random.Random(seed)
    days = sorted(rng.sample(range(1_150_000_000, 1_500_000_000, 86_400), 60))
    records = []
    for number in range(count):
        # Few talks are named for climate change, so a page of "climate" also shows talks that hold it as a tag.
        subject = SUBJECTS[0] if number % 150 == 0 else rng.choice(SUBJECTS[1:])
        tags = rng.sample(TAGS, rng.randint(3, 8))
        if number % 9 == 0:  # a talk that matches "climate" or "brain" by its tags alone
            tags.append(TAG_ONLY[number % 2])
        records.append({
            "objectID": str(2000 + number * 7 % count),
            "name": f"{rng.choice(OPENINGS)} {subject}",
            "speakers": [f"{rng.choice(FIRST)} {rng.choice(LAST)}"],
            "event_name": rng.choice(EVENTS),
            "date": rng.choice(days),
            "duration_range": rng.randint(1, 4),
            "tags": sorted(set(tags)),
            "languages": rng.sample(LANGUAGES, rng.randint(1, 4)),
        })
    return records


def write(folder, count=1500):
    """Writes talks.json and talks_settings.json into `folder` (created); returns the folder."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "talks.json"), "w", encoding="utf-8") as file:
        json.dump(talks(count), file, indent=2)
    with open(os.path.join(folder, "talks_settings.json"), "w", encoding="utf-8") as file:
        json.dump(SETTINGS, file, indent=2)
    return folder
