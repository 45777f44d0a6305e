"""An escalated answer waits for an admin: other reviewers can read it but neither decide it nor review its
claims, and do not lease it away from the admin."""

import pytest

from review.models import Decision

pytestmark = pytest.mark.django_db


@pytest.fixture
def escalated(client, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds are paid within 14 days.", "supported", 0.9)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    client.post(f"/review/answers/{answer.pk}/decide/", {"action": "escalate", "reason": "legal should look"})
    answer.refresh_from_db()
    assert answer.escalated
    return answer


def test_a_reviewer_cannot_decide_an_escalated_answer(client, second_reviewer, escalated):
    client.force_login(second_reviewer)

    page = client.get(escalated.get_absolute_url()).content.decode()
    refused = [client.post(f"/review/answers/{escalated.pk}/decide/",
                           {"action": action, "reason": "no", "edited_text": "Refunds take a day."})
               for action in ("approve", "reject", "edit")]
    claim_refused = client.post(f"/review/claims/{escalated.claims.get().pk}/review/", {"state": "confirmed"})

    assert "only an admin can decide this answer" in page
    assert 'name="action"' not in page and 'data-shortcut="confirm"' not in page
    assert [r.status_code for r in refused] == [403, 403, 403]  # an edit is refused before any re-check
    assert "escalated to an admin" in refused[0].content.decode()
    assert claim_refused.status_code == 403
    escalated.refresh_from_db()
    assert (escalated.status, escalated.escalated, escalated.lease_holder) == ("pending_review", True, None)
    assert escalated.claims.get().review_state == "open"
    assert list(escalated.decisions.values_list("action", flat=True)) == [Decision.Action.ESCALATE]


def test_an_admin_decides_an_escalated_answer_and_it_is_no_longer_escalated(client, admin_user, escalated):
    client.force_login(admin_user)

    before_start = client.get(escalated.get_absolute_url()).content.decode()
    client.post(f"/review/answers/{escalated.pk}/start/")
    page = client.get(escalated.get_absolute_url()).content.decode()
    response = client.post(f"/review/answers/{escalated.pk}/decide/", {"action": "reject", "reason": "wrong"})

    assert 'value="reject"' not in before_start and "Start review" in before_start  # reading takes no lease
    assert 'value="reject"' in page and 'value="escalate"' not in page
    assert response.status_code == 302
    escalated.refresh_from_db()
    assert (escalated.status, escalated.escalated, escalated.decided_by) == ("rejected", False, admin_user)
    assert list(escalated.decisions.order_by("id").values_list("action", flat=True)) == ["escalate", "reject"]
