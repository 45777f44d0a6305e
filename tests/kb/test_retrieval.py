"""Hybrid retrieval returns only approved, effective, unexpired versions within clearance."""

from datetime import timedelta

from django.utils import timezone

from kb.models import DocumentVersion
from kb.search import chunks_search

REMOTE = """# Workplace

## Remote work

Employees may work from home up to two days per week with their manager's agreement.

## Equipment

Laptops are replaced every four years. Replacement part code: ZX-4471-B.
"""

OTHER = """# Cafeteria

## Menu

The cafeteria serves soup and sandwiches from noon until two o'clock.
"""


def _keys(result):
    return [(hit.chunk.version.document.key, hit.chunk.version.number) for hit in result.hits]


def test_synonym_question_is_found_by_the_vector_side(publish):
    publish(REMOTE, key="workplace")
    publish(OTHER, key="cafeteria")

    result = chunks_search(query="telecommuting allowance", clearance="internal", k=3)

    top = result.hits[0]
    assert top.chunk.heading_path == "Workplace > Remote work"
    assert top.vector_rank == 1
    assert top.fulltext_rank is None  # no word in common: only the embedding could find it


def test_exact_code_is_found_by_the_full_text_side(publish):
    publish(REMOTE, key="workplace")
    publish(OTHER, key="cafeteria")

    result = chunks_search(query="ZX-4471-B", clearance="internal", k=3)

    top = result.hits[0]
    assert "ZX-4471-B" in top.chunk.text
    assert top.fulltext_rank == 1


def test_unapproved_version_is_never_returned(publish):
    publish(REMOTE, key="workplace", approve=False)

    assert chunks_search(query="work from home", clearance="restricted").hits == []


def test_superseded_version_is_never_returned(publish):
    first = publish(REMOTE, key="workplace")
    second = publish(REMOTE.replace("two days", "three days"), key="workplace")
    first.refresh_from_db()
    assert first.status == "superseded"

    result = chunks_search(query="work from home days per week", clearance="internal", k=10)

    assert result.hits
    assert {number for _, number in _keys(result)} == {second.number}


def test_expired_version_is_never_returned_even_before_the_expiry_task(publish):
    version = publish(REMOTE, key="workplace", expires_at=timezone.now() + timedelta(days=1))
    assert chunks_search(query="work from home", clearance="internal").hits
    DocumentVersion.objects.filter(pk=version.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    version.refresh_from_db()
    assert version.status == "approved"  # the beat task has not run

    assert chunks_search(query="work from home", clearance="internal").hits == []


def test_not_yet_effective_version_is_not_returned(publish):
    publish(REMOTE, key="workplace", effective_from=timezone.now() + timedelta(days=2))

    assert chunks_search(query="work from home", clearance="internal").hits == []


def test_version_above_clearance_is_never_returned(publish):
    publish(REMOTE, key="workplace", security_level="confidential")

    assert chunks_search(query="work from home", clearance="internal").hits == []
    assert chunks_search(query="work from home", clearance="confidential").hits


def test_retired_document_is_never_returned(publish, curator):
    from kb.services import document_retire

    version = publish(REMOTE, key="workplace")
    document_retire(document=version.document, user=curator)

    assert chunks_search(query="work from home", clearance="internal").hits == []


def test_similarity_floor_drops_weak_vector_matches(publish):
    publish(OTHER, key="cafeteria")

    result = chunks_search(query="quarterly tax filing deadline", clearance="internal", similarity_floor=0.6)

    assert result.hits == []
