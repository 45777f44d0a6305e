"""Learning from reviewers, by the real worker: the job adopts a better model and refuses a mislabelled batch, a
rollback restores the model before, each step is audited, and an adoption makes the saved question sets run."""

import time

import pytest
from django.core.management import call_command

from console.models import AuditEvent
from checking.training import shipped_rows
from review.learning.adopted import adopted_checker
from review.learning.review_labels import text_digest
from review.learning.models import CheckerModel, ReviewLabel
from review.tasks import checker_learning_tick

pytestmark = pytest.mark.django_db(transaction=True)


def _feature_rows(count: int) -> list[dict]:
    """Real rows the checker computed (the shipped training rows), so the labels look like a deployment's."""
    return [dict(r.features) for r in shipped_rows() if r.item.set_name == "begin-dev"][:count]


@pytest.fixture
def label(make_answer, reviewer):
    def make(features: dict, *, supported: bool) -> ReviewLabel:
        text = f"Claim {ReviewLabel.objects.count() + 1}."
        answer = make_answer(claims=[(text, "supported", 0.9)])
        return ReviewLabel.objects.create(
            claim=answer.claims.get(), answer=answer, claim_text=text, features=features, supported=supported,
            basis="confirmed" if supported else "marked wrong", source="review", answer_digest=text_digest(text),
            claim_digest=text_digest(text), labelled_by=reviewer)

    return make


def _job_runs() -> AuditEvent:
    """Run the beat job on the worker; the audit event that says what it decided."""
    adopted_checker()  # the shipped model's own adoption (a new database's first) is not what the job decided
    before = AuditEvent.objects.filter(verb__startswith="checker_model.").values_list("pk", flat=True)
    seen = set(before)
    checker_learning_tick.delay()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        new = AuditEvent.objects.filter(verb__in=["checker_model.adopt", "checker_model.refuse",
                                                  "checker_model.refit_skipped"]).exclude(pk__in=seen).first()
        if new is not None:
            return new
        time.sleep(0.1)
    raise AssertionError("the learning job decided nothing within 60 s")


def test_the_learning_job_adopts_a_better_model_refuses_a_mislabelled_batch_and_rollback_restores(
        celery_worker, label, settings, reviewer):
    settings.REVIEW_LEARNING = True
    settings.REVIEW_LEARNING_EVERY = 10
    shipped = adopted_checker().model_id
    # Reviewers of this deployment hold a claim supported exactly when the rules found it well covered: a rule the
    # shipped model only half follows.
    rows = _feature_rows(60)
    for features in rows:
        label(features, supported=features["rule_score"] >= 0.8)

    adopted = _job_runs()

    assert adopted.verb == "checker_model.adopt" and adopted.actor_label == "learning job"
    learned = CheckerModel.objects.get(pk=int(adopted.object_id))
    assert learned.is_current and learned.replaced_id == shipped and adopted_checker().model_id == learned.pk
    assert learned.labels_used == 60 and learned.family
    chosen = learned.figures["families"][learned.family]
    assert chosen["balanced"] >= learned.figures["current"]["balanced"] + settings.REVIEW_LEARNING_MARGIN

    # A batch labelled the other way round: whatever fits it unfits the first, so nothing gains on held-out labels.
    for features in rows:
        label(features, supported=features["rule_score"] < 0.8)

    refused = _job_runs()

    assert refused.verb == "checker_model.refuse"
    assert "no candidate beats the current model" in refused.note
    candidate = CheckerModel.objects.get(pk=int(refused.object_id))
    assert (candidate.is_current, candidate.state, candidate.labels_used) == (False, "refused", 120)
    assert adopted_checker().model_id == learned.pk

    call_command("checker_models", "--rollback")

    assert adopted_checker().model_id == shipped
    learned.refresh_from_db()
    assert learned.state == "rolled back"
    rollback = AuditEvent.objects.get(verb="checker_model.rollback")
    assert (rollback.before, rollback.after) == ({"model": learned.pk}, {"model": shipped})


def test_with_learning_off_the_job_only_updates_the_leak_estimate(celery_worker, label, settings):
    settings.REVIEW_LEARNING = False
    for features in _feature_rows(40):
        label(features, supported=features["rule_score"] >= 0.8)
    shipped = CheckerModel.objects.get(pk=adopted_checker().model_id)

    checker_learning_tick.delay()

    deadline = time.monotonic() + 30
    while not shipped.leak_estimates.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    estimate = shipped.leak_estimates.get()
    assert (estimate.labelled_answers, estimate.status) == (40, "insufficient")
    assert list(CheckerModel.objects.values_list("pk", flat=True)) == [shipped.pk]


def test_too_few_labels_learn_nothing_and_say_why(celery_worker, label, settings):
    settings.REVIEW_LEARNING = True
    settings.REVIEW_LEARNING_EVERY = 1
    for features in _feature_rows(8):
        label(features, supported=True)

    skipped = _job_runs()

    assert skipped.verb == "checker_model.refit_skipped"
    assert skipped.note.startswith("too few labels to learn from: 8")


def test_an_adoption_runs_the_saved_question_sets_again_naming_the_model(celery_worker, label, settings):
    from django.utils import timezone

    from ask.models import QuestionRun, QuestionSet, RunState, RunTrigger
    from ask.regression import settings_digests, settings_fingerprint

    question_set = QuestionSet.objects.create(name="Demo", slug="demo", source_filename="demo.jsonl",
                                              clearance="internal", questions=[])
    digests = settings_digests()
    QuestionRun.objects.create(question_set=question_set, questions_file="demo.jsonl", clearance="internal",
                               state=RunState.DONE, fingerprint=settings_fingerprint(digests),
                               settings_digests=digests, started_at=timezone.now(), finished_at=timezone.now())
    settings.REVIEW_LEARNING = True
    settings.REVIEW_LEARNING_EVERY = 10
    for features in _feature_rows(60):
        label(features, supported=features["rule_score"] >= 0.8)

    assert _job_runs().verb == "checker_model.adopt"

    runs = question_set.runs.filter(trigger=RunTrigger.SETTINGS_CHANGED)
    deadline = time.monotonic() + 10  # asked for once the adoption has committed
    while not runs.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert runs.get().changed_settings == ["adopted checker model"]
