"""The full-text side ranks a bounded candidate set: chunks with every query term first, then chunks with the
query's rarer terms, never more than a fixed number of rows."""

from django.db import connection

from kb.models import Chunk
from kb.search import chunks_search, fulltext_ids

SECTIONS = [
    ("Pension basics", "Pension contributions start in the first month of employment."),
    ("Pension rates", "The pension plan matches contributions up to five percent of salary."),
    ("Pension transfers", "A pension from a former employer can be transferred within ninety days."),
    ("Pension statements", "Every pension statement is sent in March and lists all contributions."),
    ("Pension advice", "Independent pension advice is offered once a year at no cost."),
    ("Garden", "The heliotrope beds beside the car park are replanted each spring."),
]
HANDBOOK = "# Handbook\n\n" + "\n\n".join(
    f"## {heading}\n\n{sentence} " + "Ask the benefits desk for details. " * 20 for heading, sentence in SECTIONS
)


def _chunk_with(word: str) -> Chunk:
    return Chunk.objects.get(text__contains=word)


def _analyze() -> None:
    """What autovacuum does after a bulk load: the lexeme frequencies the rarity estimate reads."""
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Chunk._meta.db_table}")


def test_all_terms_come_first_then_chunks_with_some_terms(publish):
    publish(HANDBOOK, key="handbook")
    assert Chunk.objects.filter(text__icontains="pension").count() == 5

    ids = fulltext_ids(query="pension heliotrope", clearance="internal", limit=10)

    # No chunk has both words: the fallback ORs the terms (on a table this small every term is rare enough).
    assert set(ids) == set(Chunk.objects.filter(text__iregex="pension|heliotrope").values_list("id", flat=True))

    ids = fulltext_ids(query="pension transferred", clearance="internal", limit=10)

    assert ids[0] == _chunk_with("transferred").pk  # the one chunk with every term ranks above the rest
    assert len(ids) == 5


def test_falls_back_to_the_rarer_terms_when_no_chunk_has_them_all(publish):
    publish(HANDBOOK, key="handbook")
    _analyze()

    # "quokka" is nowhere, so no chunk has every term. "pension" is in five chunks, over the budget of two rows
    # ranked: only the rare terms are searched, and the chunks that merely mention pensions are not ranked.
    ids = fulltext_ids(query="pension heliotrope quokka", clearance="internal", limit=10, rank_cap=2)

    assert ids == [_chunk_with("heliotrope").pk]


def test_fallback_finds_a_chunk_by_its_rare_term_through_chunks_search(publish):
    publish(HANDBOOK, key="handbook")
    _analyze()

    result = chunks_search(query="heliotrope quokka", clearance="internal", k=3)

    found = {hit.chunk.pk: hit for hit in result.hits}
    assert _chunk_with("heliotrope").pk in found
    assert found[_chunk_with("heliotrope").pk].fulltext_rank == 1


def test_rows_ranked_are_capped(publish):
    publish(HANDBOOK, key="handbook")

    assert len(fulltext_ids(query="pension", clearance="internal", limit=10)) == 5
    assert len(fulltext_ids(query="pension", clearance="internal", limit=10, rank_cap=3)) == 3
    assert len(fulltext_ids(query="pension heliotrope quokka", clearance="internal", limit=10, rank_cap=3)) == 3


def test_query_without_searchable_words_finds_nothing(publish):
    publish(HANDBOOK, key="handbook")

    assert fulltext_ids(query="the and of ?!", clearance="internal", limit=10) == []
