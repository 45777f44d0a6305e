"""Which knowledge-base changes ask for a run of the saved sets, and coalescing while a run waits (no worker:
the test's transaction never commits, so every run stays queued)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from ask.models import QuestionRun, RunTrigger
from ask.regression import question_set_save
from kb import services
from kb.models import DocumentVersion
from tests.ask.question_sets import QUESTIONS, jsonl

pytestmark = pytest.mark.django_db


@pytest.fixture
def question_set():
    saved, first = question_set_save(name="Set", text=jsonl(QUESTIONS), source_filename="s.jsonl",
                                     clearance="internal", user=None)
    first.delete()  # as if it had run: nothing waits
    return saved


def _version(curator, key="faq", **dates) -> DocumentVersion:
    document = services.document_create(key=key, title=key, owner=curator, security_level="internal",
                                        created_by=curator)
    return services.version_upload(document=document, raw=b"# FAQ\n\nText.\n", filename=f"{key}.md",
                                   uploaded_by=curator, **dates)


def test_approvals_while_a_run_waits_join_it(question_set, curator, approver):
    first, second = _version(curator, "one"), _version(curator, "two")

    services.version_approve(version=first, approver=approver)
    services.version_approve(version=second, approver=approver)

    run = question_set.runs.get()
    assert (run.state, run.trigger) == ("queued", RunTrigger.VERSION_APPROVED)
    assert set(run.trigger_versions.all()) == {first, second}


def test_an_expiring_version_asks_for_a_run(question_set, curator, approver):
    version = services.version_approve(version=_version(curator, expires_at=timezone.now() + timedelta(days=1)),
                                       approver=approver)
    question_set.runs.all().delete()
    DocumentVersion.objects.filter(pk=version.pk).update(expires_at=timezone.now() - timedelta(seconds=1))

    assert services.versions_expire_due() == 1

    run = question_set.runs.get()
    assert run.trigger == RunTrigger.VERSION_EXPIRED and list(run.trigger_versions.all()) == [version]


def test_retiring_what_was_never_evidence_asks_for_nothing(question_set, curator):
    services.version_retire(version=_version(curator), user=curator, reason="draft abandoned")

    assert not QuestionRun.objects.exists()


def test_retiring_a_document_asks_for_one_run(question_set, curator, approver):
    version = services.version_approve(version=_version(curator), approver=approver)
    question_set.runs.all().delete()

    services.document_retire(document=version.document, user=curator)

    run = question_set.runs.get()
    assert run.trigger == RunTrigger.VERSION_RETIRED and list(run.trigger_versions.all()) == [version]


def test_inactive_sets_are_not_run(question_set, curator, approver):
    question_set.active = False
    question_set.save()

    services.version_approve(version=_version(curator), approver=approver)

    assert not QuestionRun.objects.exists()
