"""Agreement between reviewers: Cohen's kappa, on a known table and on claims two reviewers marked (stored as each
reviewer's marks by the decisions), shown on the dashboard to leads only."""

import pytest

from review.agreement import cohen_kappa, reviewer_agreement
from review.models import Answer, Decision
from review.second_review import reviewer_marks_record

# The textbook table: of 50 items both said yes to 20 and no to 15; one said yes and the other no to 5 and 10.
# p_o = 0.7, p_e = 0.5 * 0.6 + 0.5 * 0.4 = 0.5, kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4.
KNOWN_TABLE = ([("yes", "yes")] * 20 + [("yes", "no")] * 5 + [("no", "yes")] * 10 + [("no", "no")] * 15)


def test_kappa_of_a_known_table_is_0_4():
    assert cohen_kappa(KNOWN_TABLE) == pytest.approx(0.4)


def test_kappa_is_1_for_full_agreement_below_0_for_less_than_chance_and_undefined_for_one_category():
    assert cohen_kappa([("a", "a"), ("b", "b"), ("a", "a")]) == pytest.approx(1.0)
    assert cohen_kappa([("a", "b"), ("b", "a")]) == pytest.approx(-1.0)
    assert cohen_kappa([("a", "a"), ("a", "a")]) is None
    assert cohen_kappa([]) is None


def _marks(answer: Answer, reviewer, action: str, states: list[str]) -> None:
    claims = list(answer.claims.order_by("ordinal"))
    for claim, state in zip(claims, states, strict=True):
        claim.review_state, claim.reviewed_by = state, reviewer
    decision = Decision.objects.create(answer=answer, reviewer=reviewer, action=action)
    reviewer_marks_record(decision=decision, claims=claims)


@pytest.mark.django_db
def test_kappa_over_claims_two_reviewers_marked(make_answer, reviewer, second_reviewer, make_user):
    c, r = "confirmed", "rejected"
    answer = make_answer(claims=[(f"Claim {n}.", "uncertain", 0.5) for n in range(10)])
    single = make_answer(claims=[("Marked by one reviewer only.", "uncertain", 0.5)])
    _marks(answer, reviewer, "first_approval", [c, c, c, c, c, r, r, r, r, r])
    _marks(answer, second_reviewer, "reject", [c, c, c, c, r, c, c, r, r, r])
    _marks(answer, make_user("third", "reviewer"), "reject", [r] * 10)  # a third mark: the first two are the pair
    _marks(single, reviewer, "approve", [c])

    agreement = reviewer_agreement(answers=Answer.objects.all())

    # p_o = 7/10; first 5 c / 5 r, second 6 c / 4 r: p_e = 0.5; kappa 0.4.
    assert (agreement.claims, agreement.agreed, agreement.percent) == (10, 7, 70)
    assert agreement.kappa == pytest.approx(0.4)


@pytest.mark.django_db
def test_the_dashboard_shows_agreement_to_leads_only(client, make_answer, reviewer, second_reviewer, approver):
    answer = make_answer(claims=[("One.", "uncertain", 0.5), ("Two.", "uncertain", 0.5)])
    _marks(answer, reviewer, "first_approval", ["confirmed", "rejected"])
    _marks(answer, second_reviewer, "approve", ["confirmed", "confirmed"])

    client.force_login(approver)
    lead_page = client.get("/").content.decode()
    client.force_login(reviewer)
    reviewer_page = client.get("/").content.decode()

    assert 'id="reviewer-kappa"' in lead_page
    assert "Cohen's kappa 0.00 on 2 double-reviewed claims (50% marked alike)" in lead_page
    assert 'id="calibration"' not in reviewer_page and "kappa" not in reviewer_page
