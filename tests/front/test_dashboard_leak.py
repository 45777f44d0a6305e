"""The dashboard's release decision: the leak estimate, its bound and the samples behind it, as computed by hand."""

import re

import pytest

from checking.training import shipped_rows
from review.learning.adopted import adopted_checker
from review.learning.review_labels import text_digest
from review.learning.refit import score
from review.learning.services import leak_estimate_update
from review.models import Answer, Claim
from review.learning.models import ReviewLabel

pytestmark = pytest.mark.django_db


def _rows(*, below: float, at_least: float) -> tuple[dict, dict]:
    """A real feature row the adopted model scores under `below`, and one it scores at least `at_least`."""
    model = adopted_checker().model
    scored = [(score(model, r.features), r.features) for r in shipped_rows()]
    low = next(f for s, f in scored if s < below)
    high = next(f for s, f in scored if s >= at_least)
    return low, high


def _labelled(api_client, reviewer, count: int, *, features: dict, supported: bool, audited: bool) -> None:
    answers = Answer.objects.bulk_create(
        Answer(client=api_client, question="Q?", text=f"Claim {n}.", status="approved", risk="medium", risk_order=1,
               sampled_for_audit=audited, audit_sample_rate=0.1 if audited else None, decided_by=reviewer)
        for n in range(count))
    claims = Claim.objects.bulk_create(
        Claim(answer=a, ordinal=0, text=a.text, start=0, end=len(a.text), score=0.5, verdict="uncertain",
              features=features) for a in answers)
    ReviewLabel.objects.bulk_create(
        ReviewLabel(claim=c, answer=c.answer, claim_text=c.text, features=features, supported=supported,
                    basis="confirmed" if supported else "marked wrong", source="audit_sample" if audited else "review",
                    weight=10.0 if audited else 1.0, answer_digest=text_digest(c.text), claim_digest=text_digest(c.text),
                    labelled_by=reviewer) for c in claims)


def test_the_leak_bound_on_the_dashboard_matches_a_hand_computation(client, reviewer, api_token):
    api_client, _ = api_token
    threshold = adopted_checker().release_threshold
    wrong_features, right_features = _rows(below=threshold, at_least=threshold)
    # 60 wrong answers reviewed (none would be released); 200 released, 20 of them audited and found right.
    _labelled(api_client, reviewer, 60, features=wrong_features, supported=False, audited=False)
    _labelled(api_client, reviewer, 20, features=right_features, supported=True, audited=True)
    Answer.objects.bulk_create(
        Answer(client=api_client, question="Q?", text=f"Released {n}.", status="released", risk="low", risk_order=2)
        for n in range(180))

    leak_estimate_update()
    client.force_login(reviewer)
    page = client.get("/").content.decode()

    # By hand: one-sided 97.5 % Clopper–Pearson limits with nothing leaked are 1 - 0.025^(1/n).
    held_part = 60 * (1 - 0.025 ** (1 / 60))  # of 60 reviewed wrong answers, at most this many released
    released_part = 200 * (1 - 0.025 ** (1 / 20))  # of 200 released answers, at most this many wrong
    bound = (held_part + released_part) / (60 + released_part)
    assert bound == pytest.approx(0.39776, abs=1e-5)
    card = page[page.index('id="release-decision"'):]
    assert f'id="leak-bound">{bound:.4f}<' in card
    assert re.search(r'id="leak-estimate">0\.0000<', card)
    assert re.search(r'id="leak-automation">1\.000 of right answers', card)
    assert "60 wrong answers among those reviewed, 20 audit samples of 200 released, 80 labelled answers" in card
    assert "leak budget not yet proven" in card and f'id="release-threshold">{threshold:.3f}<' in card
    assert "<polyline" in card


def test_before_any_estimate_the_card_says_when_it_comes(client, reviewer):
    client.force_login(reviewer)
    page = client.get("/").content.decode()

    assert "No estimate yet: it is worked out every few minutes from reviewers' labels (0 so far)." in page


def test_the_dashboard_says_learning_is_on_and_what_its_last_refit_refused(client, admin_user, settings):
    from review.learning.models import CheckerModel

    admin = admin_user
    client.force_login(admin)
    assert settings.REVIEW_LEARNING is True  # on unless an operator turns it off

    first = client.get("/").content.decode()
    assert "no refit yet" in re.sub(r"\s+", " ", first)

    CheckerModel.objects.create(origin=CheckerModel.Origin.LEARNING_JOB, model_json="{}", digest="d", shipped_digest="s",
                                release_threshold=0.97, refusal="the candidate did not beat the current model")
    learning = re.sub(r"\s+", " ", client.get("/").content.decode().split('id="learning-state">')[1].split("</dd>")[0])

    assert learning.startswith("on") and "refused: the candidate did not beat the current model" in learning
    settings.REVIEW_LEARNING = False
    assert "off (REVIEW_LEARNING=0)" in client.get("/").content.decode()
