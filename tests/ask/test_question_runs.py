"""Saved question sets re-run on change, by the real worker: a version approved or retired, a setting changed;
what got worse, on the version page; a run never imports documents."""

import pytest
from django.db import transaction

from ask import regression
from ask.models import QuestionRun, RunTrigger
from ask.tasks import question_runs_for_changed_settings
from console.work_claims import work_claims_requeue
from kb import services
from kb.models import Document
from tests.ask.conftest import KB
from tests.ask.question_sets import QUESTIONS, save_and_run, wait_finished

pytestmark = pytest.mark.django_db(transaction=True)


def _run_for(version) -> QuestionRun:
    return QuestionRun.objects.get(trigger_versions=version)


def test_approving_a_version_runs_the_saved_sets_and_the_version_page_shows_what_got_worse(
        client, approver, celery_worker, publish, quiet_topics):
    publish(KB, key="workspace-faq")
    question_set, first = save_and_run()
    assert first.summary["all"]["status_correct"] == 2 and first.regressions == []

    v2 = publish(KB.replace("Monday through Friday", "Tuesday through Saturday"), key="workspace-faq")

    run = wait_finished(_run_for(v2).pk)
    assert (run.trigger, run.question_set, run.compared_with) == (RunTrigger.VERSION_APPROVED, question_set, first)
    assert run.regressions == [{"question_id": "support-hours", "what": "point lost: 'Monday'"}]
    assert run.fingerprint == first.fingerprint and run.started_at <= run.finished_at
    client.force_login(approver)
    page = client.get(v2.get_absolute_url()).content.decode()
    assert f"Workspace questions, run {run.pk}</a>" in page and 'data-run-state="done"' in page
    assert "What got worse (1, since run" in page
    assert f'href="/ask/runs/{run.pk}/#q-support-hours"' in page and "point lost: &#x27;Monday&#x27;" in page
    detail = client.get(f"/ask/runs/{run.pk}/").content.decode()
    assert 'id="q-support-hours"' in detail and "point lost: &#x27;Monday&#x27;" in detail


def test_retiring_the_only_source_of_a_question_names_that_question(client, approver, celery_worker, publish):
    version = publish(KB, key="workspace-faq")
    save_and_run()

    services.version_retire(version=version, user=approver, reason="withdrawn")

    run = wait_finished(_run_for(version).pk)
    assert run.trigger == RunTrigger.VERSION_RETIRED
    assert {(r["question_id"], r["what"]) for r in run.regressions} >= {
        ("support-hours", "required source workspace-faq no longer recalled (was rank 1)"),
        ("support-hours", "answered became a refusal"),
    }
    assert {r["question_id"] for r in run.regressions} == {"support-hours"}  # the refusal stays a refusal
    client.force_login(approver)
    page = client.get(version.get_absolute_url()).content.decode()
    assert "required source workspace-faq no longer recalled" in page


def test_a_saved_set_never_imports_its_fixtures(celery_worker, publish):
    publish(KB, key="workspace-faq")

    _, run = save_and_run()

    assert list(Document.objects.values_list("key", flat=True)) == ["workspace-faq"]
    conflict = next(r for r in run.results if r["id"] == "refund-conflict")
    assert conflict["not_applicable"] is True and conflict["missing_documents"] == ["refund-policy"]
    assert run.summary["all"]["questions"] == 2 and run.summary["all"]["not_applicable"] == 1
    assert run.summary["conflict"]["not_applicable"] == 1


def test_two_approvals_while_a_run_waits_make_one_run_per_set(celery_worker, publish, curator, approver):
    publish(KB, key="workspace-faq")
    question_set, first = save_and_run()
    other_set, _ = save_and_run(name="Other questions", rows=QUESTIONS[:1])
    versions = [publish(f"# Note {n}\n\nThe office plant is watered on day {n}.\n", key=f"note-{n}", approve=False)
                for n in (1, 2)]

    with transaction.atomic():  # both approvals before any worker can start the run the first one queued
        for version in versions:
            services.version_approve(version=version, approver=approver)

    runs = list(QuestionRun.objects.filter(trigger_versions__in=versions).distinct())
    assert sorted(run.question_set_id for run in runs) == sorted([question_set.pk, other_set.pk])
    for run in runs:
        assert set(run.trigger_versions.all()) == set(versions)
        assert wait_finished(run.pk).compared_with is not None


def test_a_changed_setting_runs_the_sets_again_naming_it(celery_worker, publish, settings):
    publish(KB, key="workspace-faq")
    question_set, first = save_and_run()
    question_runs_for_changed_settings()
    assert question_set.runs.count() == 1  # same settings: nothing to run

    settings.ASK_GATE_MIN_SIMILARITY = 0.9  # nothing qualifies as evidence any more
    question_runs_for_changed_settings()

    run = question_set.runs.exclude(pk=first.pk).get()
    assert (run.trigger, run.changed_settings) == (RunTrigger.SETTINGS_CHANGED, ["ASK_GATE_MIN_SIMILARITY"])
    run = wait_finished(run.pk)
    assert run.fingerprint != first.fingerprint
    assert ("support-hours", "answered became a refusal") in {(r["question_id"], r["what"]) for r in run.regressions}
    question_runs_for_changed_settings()
    assert question_set.runs.count() == 2  # the new settings have run: nothing more


def test_a_run_whose_worker_died_is_run_again_by_the_sweep(celery_worker, publish):
    from django.utils import timezone

    publish(KB, key="workspace-faq")
    question_set, first = save_and_run()
    lost = QuestionRun.objects.create(question_set=question_set, clearance="internal", state="running",
                                      trigger=RunTrigger.MANUAL, task_id="dead-worker",
                                      started_at=timezone.now() - regression.RUN_STALE_AFTER * 2)

    assert work_claims_requeue(kind=regression.QUESTION_RUN) == 1

    run = wait_finished(lost.pk)
    assert run.task_id != "dead-worker" and run.compared_with == first


def test_a_failing_run_request_never_blocks_an_approval(publish, approver, monkeypatch, celery_worker):
    publish(KB, key="workspace-faq")
    save_and_run()

    def broken(**kwargs):
        raise RuntimeError("question runs unavailable")

    monkeypatch.setattr(regression, "question_runs_request", broken)
    version = publish(KB + "\nOne more line.\n", key="workspace-faq")

    assert version.status == "approved"
    assert not QuestionRun.objects.filter(trigger_versions=version).exists()
