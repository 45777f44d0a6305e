"""Git sources against real repositories: commits become versions awaiting approval, with the commit recorded;
approval makes them evidence; edits, renames, deletions and force-pushes; every error in words."""

from __future__ import annotations

import pytest

from console.deferred_text import deferred_text_read
from console.work_claims import work_claim_take
from kb import services, sources
from kb.models import Document, DocumentVersion, Source, VersionStatus
from tests.kb.git_repos import GitRepo

pytestmark = pytest.mark.django_db

TRAVEL = """---
title: Travel policy
owner: cora
expires_at: 2031-12-31
---
# Travel policy

The nightly hotel cap in London is £220.
"""


@pytest.fixture
def repo(tmp_path, settings):
    settings.KB_SOURCES_DIR = tmp_path / "mirrors"
    git = GitRepo(tmp_path / "policies")
    yield git
    git.close()


@pytest.fixture
def source(repo, curator):
    return sources.source_create(name="Policies", repository=str(repo.path), branch="main", folder="docs",
                                 default_owner=curator, security_level="internal", created_by=curator)


def sync(source: Source) -> dict:
    Source.objects.filter(pk=source.pk).update(sync_state=Source.SyncState.QUEUED)
    assert sources.source_sync_claim(source_id=source.pk)
    return sources.source_sync_run(source_id=source.pk)


@pytest.fixture
def index(celery_worker_session):
    """Index a version here (the model answers through the real worker when this process may not load it)."""
    return _index


def _index(version: DocumentVersion) -> None:
    if work_claim_take(kind=services.VERSION_INDEXING, pk=version.pk):
        services.version_index_run(version_id=version.pk)


def test_a_commit_becomes_a_version_awaiting_approval_with_the_commit_recorded(repo, source, curator, index):
    repo.write("docs/travel.md", TRAVEL)
    repo.write("README.md", "# Not a policy: outside the folder\n")
    commit = repo.commit("Add the travel policy")

    report = sync(source)

    document = Document.objects.get(key="travel")
    version = document.versions.get()
    assert (document.title, document.owner, document.source_type) == ("Travel policy", curator, "git")
    assert (document.source, document.source_path) == (source, "docs/travel.md")
    assert version.status == VersionStatus.PENDING_APPROVAL
    assert (version.commit_sha, version.commit_message) == (commit, "Add the travel policy")
    assert version.commit_author == "Maria Lopez <maria@example.org>"
    assert version.text.startswith("# Travel policy")  # the front matter is metadata, not text
    assert version.expires_at.year == 2031
    assert report["versions"] == [{"path": "docs/travel.md", "key": "travel", "number": 1, "new_document": True}]
    assert not Document.objects.filter(key="readme").exists()
    index(version)
    assert version not in DocumentVersion.objects.usable_as_evidence(clearance="internal")


def test_approval_makes_a_synced_version_evidence(repo, source, approver, index):
    repo.write("docs/travel.md", TRAVEL)
    repo.commit("Add the travel policy")
    sync(source)
    version = DocumentVersion.objects.get(document__key="travel")
    index(version)

    services.version_approve(version=version, approver=approver)

    assert version in DocumentVersion.objects.usable_as_evidence(clearance="internal")


def test_an_edit_is_a_new_version_and_an_unchanged_file_none(repo, source):
    repo.write("docs/travel.md", TRAVEL)
    repo.write("docs/meals.md", "# Meals\n\nThe per diem is $65.\n")
    repo.commit("First policies")
    sync(source)

    repo.write("docs/travel.md", TRAVEL.replace("£220", "£240"))
    edit = repo.commit("London cap raised to £240")
    report = sync(source)

    travel = DocumentVersion.objects.filter(document__key="travel").order_by("number")
    assert [v.number for v in travel] == [1, 2]
    assert travel.last().commit_sha == edit and "£240" in travel.last().text
    assert DocumentVersion.objects.filter(document__key="meals").count() == 1
    assert report["unchanged"] == 1
    assert sync(source)["versions"] == []  # nothing new: nothing to approve again


def test_a_deleted_file_asks_for_withdrawal_and_retires_nothing(repo, source, client, curator):
    repo.write("docs/travel.md", TRAVEL)
    repo.commit("Add")
    sync(source)
    repo.remove("docs/travel.md")
    removal = repo.commit("Travel policy withdrawn")

    report = sync(source)

    document = Document.objects.get(key="travel")
    assert report["removed"] == [{"path": "docs/travel.md", "key": "travel"}]
    assert document.source_removed_in == removal
    assert not document.is_retired
    client.force_login(curator)
    page = client.get("/kb/travel/").content.decode()
    assert "was removed from Policies" in page and "data-retire-removed" in page


def test_a_renamed_file_keeps_its_document(repo, source):
    repo.write("docs/travel.md", TRAVEL)
    repo.commit("Add")
    sync(source)
    repo.remove("docs/travel.md")
    repo.write("docs/policies/travel.md", TRAVEL)
    repo.commit("Move into policies/")

    report = sync(source)

    document = Document.objects.get(key="travel")
    assert document.source_path == "docs/policies/travel.md"
    assert document.versions.count() == 1
    assert report["removed"] == [] and report["unchanged"] == 1


def test_a_force_push_is_read_like_any_commit(repo, source):
    repo.write("docs/travel.md", TRAVEL)
    first = repo.commit("Add")
    repo.write("docs/travel.md", TRAVEL.replace("£220", "£999"))
    repo.commit("A mistake")
    sync(source)
    repo.reset_hard(first)
    repo.write("docs/travel.md", TRAVEL.replace("£220", "£230"))
    rewritten = repo.commit("The right figure")

    sync(source)

    latest = DocumentVersion.objects.filter(document__key="travel").order_by("-number").first()
    assert latest.commit_sha == rewritten and "£230" in latest.text
    assert Source.objects.get(pk=source.pk).last_commit == rewritten


def test_bad_front_matter_unknown_owner_and_a_large_file_are_refused_in_words_the_others_synced(
        repo, source, settings):
    settings.KB_MAX_UPLOAD_BYTES = 2000
    repo.write("docs/travel.md", TRAVEL)
    repo.write("docs/broken.md", "---\ntitle: [unclosed\n---\n# Broken\n")
    repo.write("docs/levels.md", "---\nsecurity_level: top-secret\n---\n# Levels\n")
    repo.write("docs/stranger.md", "---\nowner: nobody-here\n---\n# Stranger\n")
    repo.write("docs/huge.md", "# Huge\n\n" + "word " * 1000)
    repo.commit("Mixed")

    report = sync(source)

    errors = {error["path"]: deferred_text_read(error["error"]) for error in report["errors"]}
    assert "not valid YAML" in errors["docs/broken.md"]
    assert "top-secret" in errors["docs/levels.md"] and "internal" in errors["docs/levels.md"]
    assert "nobody called “nobody-here”" in errors["docs/stranger.md"]
    assert "the limit is" in errors["docs/huge.md"]
    assert [v["key"] for v in report["versions"]] == ["travel"]
    assert set(Document.objects.values_list("key", flat=True)) == {"travel"}


def test_an_unreachable_repository_and_a_missing_branch_are_said_in_words(repo, curator, tmp_path):
    nowhere = sources.source_create(name="Nowhere", repository=str(tmp_path / "no-such-repo"), branch="main",
                                    folder="", default_owner=curator, security_level="internal", created_by=curator)
    sync(nowhere)
    assert "No Git repository at" in deferred_text_read(Source.objects.get(pk=nowhere.pk).last_error)

    repo.write("docs/travel.md", TRAVEL)
    repo.commit("Add")
    wrong_branch = sources.source_create(name="Wrong", repository=str(repo.path), branch="production", folder="",
                                         default_owner=curator, security_level="internal", created_by=curator)
    sync(wrong_branch)
    assert deferred_text_read(Source.objects.get(pk=wrong_branch.pk).last_error) == (
        "The repository has no branch “production” (it has: main).")


def test_the_source_page_shows_the_last_sync_and_its_errors(client, repo, source, curator):
    repo.write("docs/travel.md", TRAVEL)
    repo.write("docs/stranger.md", "---\nowner: nobody-here\n---\n# Stranger\n")
    repo.commit("Add")
    sync(source)
    client.force_login(curator)

    page = client.get(f"/kb/sources/{source.pk}/").content.decode()

    assert "1 new versions, 0 unchanged, 0 removed" in page
    assert 'data-file-error="docs/stranger.md"' in page and "nobody called" in page
    assert source.webhook_secret in page


def test_errors_stored_by_the_worker_are_read_in_the_readers_language(client, repo, source, curator):
    repo.write("docs/stranger.md", "---\nowner: nobody-here\n---\n# Stranger\n")
    repo.commit("Add")
    sync(source)
    curator.language = "zh-hans"
    curator.save(update_fields=["language"])
    client.force_login(curator)

    page = client.get(f"/kb/sources/{source.pk}/").content.decode()

    assert "owner：没有名为“nobody-here”的用户可以登录控制台。" in page
    assert "nobody called" not in page


def test_the_sources_pages_are_for_curators_and_approvers(client, source, reviewer, approver):
    client.force_login(reviewer)
    assert client.get("/kb/sources/").status_code == 403
    client.force_login(approver)
    assert client.get(f"/kb/sources/{source.pk}/").status_code == 200
    assert client.post("/kb/sources/", {"name": "x"}).status_code == 403  # approvers look; curators add


def test_beat_syncs_sources_due_and_asks_again_for_a_lost_sync(source, settings):
    from datetime import timedelta

    from django.utils import timezone

    long_ago = timezone.now() - timedelta(hours=2)
    Source.objects.filter(pk=source.pk).update(sync_state="idle", last_sync_at=long_ago)
    assert sources.sources_sync_due() == 1
    assert Source.objects.get(pk=source.pk).sync_state == "queued"
    assert sources.sources_sync_due() == 0  # queued already, and not lost yet

    Source.objects.filter(pk=source.pk).update(sync_state="running", sync_requested_at=long_ago)  # its worker died
    assert sources.sources_sync_due() == 1
    Source.objects.filter(pk=source.pk).update(sync_state="idle", last_sync_at=timezone.now())
    assert sources.sources_sync_due() == 0  # synced a moment ago
