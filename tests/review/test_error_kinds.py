"""Why a claim is wrong: a kind given with the mark (page buttons, plain POST, the group page, the review API) is in
the audit, both APIs' claim output and the labels export; an unknown kind is a 400 that changes nothing."""

import pytest

from console.models import AuditEvent
from review.learning.models import ReviewLabel
from review.learning.review_labels import labels_exported
from review.models import Answer

pytestmark = pytest.mark.django_db


def _path(answer, tail: str = "") -> str:
    return f"/api/v1/review/answers/{answer.pk}{tail}"


def test_a_kind_given_through_the_review_api_reaches_the_audit_both_apis_and_the_labels_export(
        people_api, reviewer, make_answer, api):
    answer = make_answer(claims=[("Refunds take 45 days.", "contradicted", 0.1)])
    rita = people_api(reviewer)
    rita.post(_path(answer, "/lease"))

    decided = rita.post(_path(answer, "/decision"), {
        "action": "reject", "reason": "wrong window",
        "claims": [{"index": 0, "state": "rejected", "kind": "wrong_value", "note": "it is 30 days"}]})

    assert decided.status_code == 200, decided.content
    review = rita.get(_path(answer)).json()["claims"][0]["review"]
    assert (review["state"], review["kind"], review["note"]) == ("rejected", "wrong_value", "it is 30 days")
    assert api.get(f"/api/v1/answers/{answer.pk}").json()["claims"][0]["review"]["kind"] == "wrong_value"
    mark = AuditEvent.objects.get(verb="claim.rejected", object_id=str(answer.claims.get().pk))
    assert mark.after["kind"] == "wrong_value"
    exported = list(labels_exported(ReviewLabel.objects.filter(answer=answer)))
    assert [(row["label"], row["error_kind"]) for row in exported] == [("unsupported", "wrong_value")]


def test_a_kind_button_on_the_page_marks_the_claim_wrong_with_its_kind_by_plain_post(client, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds take 45 days.", "contradicted", 0.1)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    claim = answer.claims.get()

    response = client.post(f"/review/claims/{claim.pk}/review/", {"kind": "outdated_source", "note": "v1 said 45"})

    assert response.status_code == 302
    claim.refresh_from_db()
    assert (claim.review_state, claim.error_kind, claim.review_note) == ("rejected", "outdated_source", "v1 said 45")
    page = client.get(f"/review/answers/{answer.pk}/").content.decode()
    assert "Why it is wrong" in page and 'aria-pressed="true"' in page and "Outdated source" in page


def test_marking_a_claim_wrong_without_a_kind_asks_for_one_and_marking_it_correct_clears_it(
        client, reviewer, make_answer):
    answer = make_answer(claims=[("Refunds take 45 days.", "uncertain", 0.5)])
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    claim = answer.claims.get()

    card = client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected"}, HTTP_HX_REQUEST="true")
    client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected", "kind": "wrong_name"})
    client.post(f"/review/claims/{claim.pk}/review/", {"state": "confirmed", "kind": "wrong_name"})

    assert "Why is it wrong?" in card.content.decode() and 'data-kind-key="6"' in card.content.decode()
    claim.refresh_from_db()
    assert (claim.review_state, claim.error_kind) == ("confirmed", "")
    kinds = [event.after.get("kind") for event in AuditEvent.objects.filter(object_id=str(claim.pk),
                                                                             verb__startswith="claim.")
             .order_by("pk")]
    assert kinds == [None, "wrong_name", ""]  # the audit says only what changed: no kind at first, none at the end


def test_an_unknown_kind_on_the_page_is_400_and_marks_nothing(client, reviewer, make_answer):
    answer = make_answer()
    client.force_login(reviewer)
    client.post(f"/review/answers/{answer.pk}/start/")
    claim = answer.claims.get()

    response = client.post(f"/review/claims/{claim.pk}/review/", {"state": "rejected", "kind": "typo"})

    assert response.status_code == 400
    assert "is no kind of error" in response.content.decode()
    assert answer.claims.get().review_state == "open"


def test_the_group_page_gives_each_wrong_claim_its_kind(client, reviewer, make_answer):
    first = make_answer(question="Refund window?")
    second = make_answer(question="Refund window, again?")
    for answer in (first, second):
        answer.claims.update(fact_key="refund-window")
    client.force_login(reviewer)
    from review.groups import answer_groups
    from review.selectors import answers_visible_to

    group = answer_groups(pending=answers_visible_to(reviewer))[0]
    page = client.get(f"/review/groups/{group.key}/").content.decode()
    client.post(f"/review/groups/{group.key}/decide/", {
        "fact_key": "refund-window", "state-refund-window": "rejected", "kind-refund-window": "not_in_sources",
        "action": "reject", "reason": "no source says so"})

    assert 'name="kind-refund-window"' in page
    assert [(a.status, a.claims.get().error_kind) for a in Answer.objects.filter(pk__in=[first.pk, second.pk])] == [
        ("rejected", "not_in_sources"), ("rejected", "not_in_sources")]
