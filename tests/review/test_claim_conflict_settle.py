"""POST /review/claims/<id>/conflict/: the claim card's "Which source is right?" form (htmx)."""

import pytest
from django.test import Client

from review import leases
from review.models import Answer, SourceCorrection

pytestmark = pytest.mark.django_db


def _url(answer) -> str:
    return f"/review/claims/{answer.claims.get().pk}/conflict/"


def _conflicting_id(answer) -> int:
    return answer.claims.get().evidence.get(rank=2).pk


def test_recording_a_choice_swaps_the_card_showing_it(client, reviewer, conflicting_answer):
    client.force_login(reviewer)
    client.post(f"/review/answers/{conflicting_answer.pk}/start/")

    response = client.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer),
                                                      "right": "supporting", "note": "contract says 30"},
                           headers={"HX-Request": "true"})

    card = response.content.decode()
    assert response.status_code == 200
    assert f"{reviewer.username} recorded: <strong>Product FAQ v1 is right</strong> — “contract says 30”" in card
    assert 'value="supporting" aria-pressed="true"' in card
    assert SourceCorrection.objects.get().wrong_version.document.key == "refund-policy"


def test_the_review_page_shows_the_recorded_choice_to_a_reader(client, reviewer, second_reviewer,
                                                               conflicting_answer):
    client.force_login(reviewer)
    client.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer), "right": "neither"})
    leases.answer_lease_release(answer=conflicting_answer, reviewer=reviewer)
    client.force_login(second_reviewer)

    page = client.get(conflicting_answer.get_absolute_url()).content.decode()

    assert "recorded: <strong>Neither / can&#x27;t tell</strong>" in page
    assert "Claim 1, which source is right: “Neither / can&#x27;t tell” — rita" in page
    assert 'class="conflict-settle"' not in page  # reading takes no lease: no form


def test_another_reviewers_lease_is_a_409_shown_in_the_card(client, reviewer, second_reviewer, conflicting_answer):
    leases.answer_lease_take(answer=conflicting_answer, reviewer=second_reviewer)
    client.force_login(reviewer)

    response = client.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer),
                                                      "right": "supporting"}, headers={"HX-Request": "true"})

    assert response.status_code == 409
    assert f"{second_reviewer.username} holds the lease" in response.content.decode()
    assert not SourceCorrection.objects.exists()


def test_bad_input_is_a_400(client, reviewer, conflicting_answer):
    client.force_login(reviewer)
    url = _url(conflicting_answer)

    assert client.post(url, {"conflicting": "x", "right": "supporting"}).status_code == 400
    assert client.post(url, {"conflicting": "999999", "right": "supporting"}).status_code == 400
    assert client.post(url, {"conflicting": _conflicting_id(conflicting_answer), "right": "both"},
                       headers={"HX-Request": "true"}).status_code == 400
    assert client.post(url, {"conflicting": _conflicting_id(conflicting_answer), "right": "neither",
                             "note": "bad\x00note"}).status_code == 400
    assert not SourceCorrection.objects.exists()


def test_roles_clearance_and_csrf(client, curator, reviewer, conflicting_answer):
    client.force_login(curator)
    assert client.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer),
                                                  "right": "supporting"}).status_code == 403

    Answer.objects.filter(pk=conflicting_answer.pk).update(evidence_level="confidential")
    client.force_login(reviewer)  # internal clearance
    assert client.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer),
                                                  "right": "supporting"}).status_code == 404

    Answer.objects.filter(pk=conflicting_answer.pk).update(evidence_level="internal")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reviewer)
    assert strict.post(_url(conflicting_answer), {"conflicting": _conflicting_id(conflicting_answer),
                                                  "right": "supporting"}).status_code == 403
    assert not SourceCorrection.objects.exists()
