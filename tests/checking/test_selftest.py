import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from checking.languages.en_selftest import name_pool, names_in, negate, number_swap, role_swap, sections_of
from checking.selftest import SUPPORTED_KINDS, UNSUPPORTED_KINDS, claims_synthesize

MUSEUM = """# Harbor Museum — Visitor Guide

The Harbor Museum is run by the Coastal Heritage Trust and was opened by Mayor Ada Brooks in March 2004.

## Tickets

Adult tickets cost $18 per visit, and children under 12 enter free. Members get 20 percent off guided tours
(booked online). On the first Sunday of each month, entry is free for everyone. Visitors must show a ticket
before entering the galleries.

| Ticket | Price |
|---|---|
| Adult | $18 |

## Opening hours

The museum opens at 10 a.m. and closes at 6 p.m. from Tuesday to Sunday. Photography is allowed in the main
hall but prohibited in the archive. Visitor numbers rose by 15 percent in 2023. Bags larger than 40 liters are
not permitted in the galleries.

```
curl https://example.org/tickets --data "adult=2"
```
"""

FERRY = """# Ferry timetable

## Crossings

The ferry to Gull Island is operated by Bluewater Lines. Crossings take 45 minutes in calm weather. Lockers can
be rented at the pier for 3 dollars a day.
"""

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def synthesise(**kwargs):
    return claims_synthesize(text=MUSEUM, others=[FERRY], **kwargs)


def test_prose_sentences_are_read_by_section_and_tables_code_and_headings_are_not():
    sections = sections_of(MUSEUM)
    assert [s.heading for s in sections] == ["Harbor Museum — Visitor Guide", "Tickets", "Opening hours"]
    assert sections[1].sentences[1] == "Members get 20 percent off guided tours (booked online)."
    everything = " ".join(s for section in sections for s in section.sentences)
    assert "curl" not in everything and "|" not in everything and "Visitor Guide" not in everything


def test_every_kind_is_synthesised_and_only_when_the_text_changed():
    claims = synthesise()
    assert {c.kind for c in claims} == set(SUPPORTED_KINDS) | set(UNSUPPORTED_KINDS)
    sentences = {s for section in sections_of(MUSEUM) for s in section.sentences}
    for claim in claims:
        assert claim.label == ("supported" if claim.kind in SUPPORTED_KINDS else "unsupported")
        if claim.kind == "verbatim":
            assert claim.claim == claim.source and claim.source in sentences
        else:
            assert claim.claim != claim.source, claim


def test_supported_kinds_keep_every_number_and_invent_no_name():
    pool = name_pool([MUSEUM, FERRY])
    supported = [c for c in synthesise() if c.label == "supported"]
    assert {c.kind for c in supported} == set(SUPPORTED_KINDS)
    for claim in supported:
        assert Counter(NUMBER.findall(claim.claim)) == Counter(NUMBER.findall(claim.source)), claim
        assert set(names_in(claim.claim, pool=pool)) <= set(names_in(claim.source, pool=pool)), claim


def test_each_unsupported_kind_changes_what_it_promises():
    by_kind = {c.kind: c for c in synthesise()}

    number = by_kind["number_swap"]
    assert NUMBER.findall(number.claim) != NUMBER.findall(number.source)
    assert len(number.claim.split()) == len(number.source.split())

    unit = by_kind["unit_swap"]
    assert NUMBER.findall(unit.claim) == NUMBER.findall(unit.source)

    date = by_kind["date_swap"]
    assert re.sub(r"\w+", "w", date.claim) == re.sub(r"\w+", "w", date.source)  # one word (month, day, year) swapped

    names = by_kind["name_swap"]
    pool = name_pool([MUSEUM, FERRY])
    assert set(names_in(names.claim, pool=pool)) - set(names_in(names.source, pool=pool))

    flipped = set(by_kind["direction_flip"].claim.lower().split()) ^ set(by_kind["direction_flip"].source.lower().split())
    assert flipped in [{"before", "after"}, {"rose", "fell"}, {"more", "less"}]

    negated = by_kind["negation"]
    assert ("not" in negated.claim.split()) != ("not" in negated.source.split())

    antonym = set(by_kind["antonym"].claim.lower().split()) ^ set(by_kind["antonym"].source.lower().split())
    assert antonym in [{"allowed", "prohibited"}, {"permitted", "forbidden"}, {"free", "paid"}]

    role = by_kind["role_swap"]
    assert Counter(role.claim) == Counter(role.source)  # the same words, two of them in each other's place

    moved = by_kind["moved_sentence"]
    assert moved.source in FERRY.replace("\n", " ")
    assert moved.claim.split()[0] in {"Tickets", "Opening"}

    appended = by_kind["appended_clause"]
    assert appended.claim.startswith(appended.source.rstrip(".") + ", which ")


def test_deterministic_with_a_seed_and_capped_per_kind():
    assert synthesise(seed=7) == synthesise(seed=7)
    assert synthesise(seed=7) != synthesise(seed=8)
    assert max(Counter(c.kind for c in synthesise(per_kind=1)).values()) == 1


def test_number_swap_leaves_dates_and_clock_times_alone():
    rng = random.Random(0)
    sentence = "Doors open at 9:30 a.m. on March 3, 2024 for 40 guests."
    swapped = number_swap(sentence, rng)
    assert "9:30" in swapped and "March 3, 2024" in swapped and "40 guests" not in swapped


def test_negation_removes_or_inserts_not():
    rng = random.Random(0)
    assert negate("Bags are not permitted in the galleries.", rng) == "Bags are permitted in the galleries."
    assert negate("Visitors must show a ticket at the door.", rng) == "Visitors must not show a ticket at the door."
    assert negate("Entry was free for everyone that day.", rng) == "Entry was not free for everyone that day."


def test_role_swap_leaves_lists_alone_where_order_carries_no_meaning():
    rng = random.Random(0)
    pool = frozenset({"Pro", "Plus", "Team"})
    listed = "Students get 50 percent off the Plus and Pro plans."
    assert role_swap(listed, rng, pool=pool) == listed
    assert role_swap("Refunds take 5 to 7 business days.", rng, pool=pool) == "Refunds take 5 to 7 business days."
    assert role_swap("Team includes everything in Plus.", rng, pool=pool) == "Plus includes everything in Team."


def test_synthesis_is_the_same_whatever_the_hash_seed():
    """`train_checker` fits on these claims: a set's iteration order (which PYTHONHASHSEED changes from run to run)
    must not decide which names are swapped, or every run fits another model."""
    script = (
        "import json, pathlib, sys\n"
        "from checking.selftest import claims_synthesize\n"
        "texts = [p.read_text() for p in sorted(pathlib.Path('kb/demo').glob('*.md'))]\n"
        "claims = [c.__dict__ for k, text in enumerate(texts)\n"
        "          for c in claims_synthesize(text=text, others=texts[:k] + texts[k + 1:], seed=1)]\n"
        "json.dump(claims, sys.stdout)\n"
    )
    root = Path(__file__).resolve().parents[2]

    def synthesised(hash_seed: str) -> str:
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        return subprocess.run([sys.executable, "-c", script], cwd=root, env=environment, capture_output=True,
                              text=True, check=True).stdout

    runs = {seed: synthesised(seed) for seed in ("0", "1", "2")}
    assert json.loads(runs["0"])  # claims were made
    assert runs["0"] == runs["1"] == runs["2"]
