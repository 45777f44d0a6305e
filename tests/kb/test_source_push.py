"""Push webhooks from GitHub, GitLab and Gitea, verified with real signatures; a push to the branch syncs at once
through the real worker."""

from __future__ import annotations

import hashlib
import hmac
import json
import time

import pytest

from kb import sources
from kb.models import DocumentVersion, Source
from tests.kb.git_repos import GitRepo

TRAVEL = "# Travel policy\n\nThe nightly hotel cap in London is £220.\n"


@pytest.fixture
def repo(tmp_path, settings):
    settings.KB_SOURCES_DIR = tmp_path / "mirrors"
    git = GitRepo(tmp_path / "policies")
    yield git
    git.close()


@pytest.fixture
def source(repo, curator):
    created = sources.source_create(name="Policies", repository=str(repo.path), branch="main", folder="",
                                    default_owner=curator, security_level="internal", created_by=curator)
    Source.objects.filter(pk=created.pk).update(sync_state=Source.SyncState.IDLE)  # as if its first sync ran
    created.refresh_from_db()
    return created


def _push(client, source, body: bytes, **headers):
    return client.post(f"/kb/sources/{source.pk}/push/", data=body, content_type="application/json", **headers)


def _github(secret: str, body: bytes) -> dict:
    return {"HTTP_X_HUB_SIGNATURE_256": "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest(),
            "HTTP_X_GITHUB_EVENT": "push"}


def _wait_for_version(key: str, timeout: float = 30.0) -> DocumentVersion:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = DocumentVersion.objects.filter(document__key=key).first()
        if version is not None:
            return version
        time.sleep(0.1)
    raise AssertionError(f"no version of {key} within {timeout}s")


@pytest.mark.django_db(transaction=True)
def test_a_github_push_syncs_within_seconds(client, celery_worker, repo, source):
    repo.write("travel.md", TRAVEL)
    commit = repo.commit("Add the travel policy")
    body = json.dumps({"ref": "refs/heads/main", "after": commit}).encode()

    started = time.monotonic()
    response = _push(client, source, body, **_github(source.webhook_secret, body))

    assert response.status_code == 202 and response.json() == {"status": "queued"}
    version = _wait_for_version("travel")
    assert time.monotonic() - started < 30
    assert version.commit_sha == commit and version.status == "pending_approval"


@pytest.mark.django_db
def test_a_wrong_or_missing_signature_is_refused(client, source):
    body = b'{"ref": "refs/heads/main"}'
    assert _push(client, source, body, **_github("not-the-secret", body)).status_code == 403
    assert _push(client, source, body).status_code == 403
    assert _push(client, source, body, HTTP_X_GITLAB_TOKEN="guess").status_code == 403
    assert Source.objects.get(pk=source.pk).sync_state == "idle"


@pytest.mark.django_db
def test_gitlab_and_gitea_pushes_are_verified_their_way(client, source):
    body = b'{"ref": "refs/heads/main"}'
    assert _push(client, source, body, HTTP_X_GITLAB_TOKEN=source.webhook_secret).status_code == 202
    Source.objects.filter(pk=source.pk).update(sync_state="idle")
    gitea = hmac.new(source.webhook_secret.encode(), body, hashlib.sha256).hexdigest()
    assert _push(client, source, body, HTTP_X_GITEA_SIGNATURE=gitea).status_code == 202
    assert Source.objects.get(pk=source.pk).sync_state == "queued"


@pytest.mark.django_db
def test_a_push_to_another_branch_is_ignored(client, source):
    body = b'{"ref": "refs/heads/feature-x"}'
    response = _push(client, source, body, **_github(source.webhook_secret, body))
    assert response.status_code == 202 and response.json() == {"status": "ignored"}
    assert Source.objects.get(pk=source.pk).sync_state == "idle"


@pytest.mark.django_db
def test_a_signed_body_that_is_not_json_is_a_400(client, source):
    body = b"not json"
    response = _push(client, source, body, **_github(source.webhook_secret, body))
    assert response.status_code == 400 and response.json()["error"] == "bad_request"
