"""`n` (Review next) hands out the next answer of the queue as the reviewer filtered it, not one filtered away."""

import pytest

from review.models import Answer

pytestmark = pytest.mark.django_db


def test_next_from_a_filtered_queue_leases_an_answer_the_filter_shows(client, reviewer, make_answer):
    make_answer(question="High question?", risk="high")  # first in the queue's order
    medium = make_answer(question="Medium question?", risk="medium")
    client.force_login(reviewer)
    page = client.get("/review/?risk=medium").content.decode()
    assert 'action="/review/next/?queue=1&amp;risk=medium"' in page

    response = client.post("/review/next/?queue=1&risk=medium")

    assert response.status_code == 302 and response["Location"] == medium.get_absolute_url()
    assert Answer.objects.get(pk=medium.pk).lease_holder == reviewer


def test_the_filter_holds_for_the_next_after_a_decision_and_clearing_it_on_the_queue_drops_it(
        client, reviewer, make_answer):
    high = make_answer(question="High question?", risk="high")
    medium = make_answer(question="Medium question?", risk="medium")
    client.force_login(reviewer)
    client.post("/review/next/?queue=1&risk=medium")
    Answer.objects.filter(pk=medium.pk).update(status="approved")  # decided meanwhile

    # no medium answer left: back to the list it was, saying what waits elsewhere
    finished = client.post("/review/next/")
    assert finished["Location"] == "/review/?risk=medium"
    assert "Nothing left in this list; 1 answer is waiting elsewhere." in client.get(finished["Location"]).content.decode()

    assert client.post("/review/next/?queue=1")["Location"] == high.get_absolute_url()  # unfiltered from the queue


def test_next_with_a_client_filter_hands_out_only_that_clients_answers(client, reviewer, make_answer):
    from review.services import api_client_create

    helpdesk, _token = api_client_create(name="helpdesk", clearance="internal")
    make_answer(question="High from the assistant?", risk="high")  # first in the queue's order
    from_helpdesk = make_answer(question="Medium from helpdesk?", risk="medium")
    Answer.objects.filter(pk=from_helpdesk.pk).update(client=helpdesk)
    client.force_login(reviewer)

    first = client.post(f"/review/next/?queue=1&client={helpdesk.pk}")
    Answer.objects.filter(pk=from_helpdesk.pk).update(status="approved")  # decided meanwhile
    second = client.post("/review/next/")  # the filter holds: nothing else from helpdesk

    assert first["Location"] == from_helpdesk.get_absolute_url()
    assert second["Location"] == f"/review/?client={helpdesk.pk}"


def test_next_on_an_empty_unfiltered_queue_says_all_is_done(client, reviewer, make_answer):
    answer = make_answer(question="The only one?", risk="medium")
    client.force_login(reviewer)
    client.post("/review/next/?queue=1")
    Answer.objects.filter(pk=answer.pk).update(status="approved")

    finished = client.post("/review/next/")

    assert finished["Location"] == "/review/"
    assert "Nothing is waiting for review. Well done." in client.get("/review/").content.decode()
