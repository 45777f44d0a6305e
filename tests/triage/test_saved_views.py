"""Saved views: the queue's filters, sort and columns under a name, for oneself or shared; a view's URL restores
them, and "Review next" under a view hands out only what the view shows."""

import pytest

from review.models import Answer
from triage.models import QueueView
from tests.triage.conftest import listed

pytestmark = pytest.mark.django_db


def _save(client, query: str, name: str, shared: bool = False):
    data = {"name": name, "query": query}
    if shared:
        data["shared"] = "on"
    return client.post("/triage/views/", data)


def test_saving_a_view_keeps_filters_sort_and_columns_and_opens_it(client, reviewer, make_answer):
    client.force_login(reviewer)

    response = _save(client, "risk=high&sort=likely&cols=client&cols=reason&page=3", "High, likeliest")

    view = QueueView.objects.get(owner=reviewer, name="High, likeliest")
    assert view.query == "risk=high&sort=likely&cols=client&cols=reason"  # not the page
    assert response.status_code == 302 and response["Location"] == f"/review/?{view.query}&view={view.pk}"


def test_a_views_url_restores_its_filters_and_columns(client, reviewer, make_answer):
    high = make_answer(question="High?", risk="high")
    make_answer(question="Medium?", risk="medium")
    view = QueueView.objects.create(owner=reviewer, name="High", query="risk=high&cols=client")
    client.force_login(reviewer)

    opened = client.get(f"/review/?view={view.pk}")
    assert opened.status_code == 302 and opened["Location"] == f"/review/?risk=high&cols=client&view={view.pk}"
    page = client.get(opened["Location"])

    assert listed(page) == [high.pk]
    body = page.content.decode()
    assert 'data-column="client"' in body and 'data-column="reason"' not in body
    assert '<span id="current-view">High</span>' in body


def test_a_shared_view_is_offered_to_other_reviewers_a_private_one_is_not(client, reviewer, second_reviewer):
    shared = QueueView.objects.create(owner=reviewer, name="Team high", query="risk=high", shared=True)
    private = QueueView.objects.create(owner=reviewer, name="Just mine", query="risk=medium")
    client.force_login(second_reviewer)

    page = client.get("/review/").content.decode()

    assert 'data-saved-view="Team high"' in page and "shared by rita" in page
    assert 'data-saved-view="Just mine"' not in page
    assert client.get(f"/review/?view={private.pk}").status_code == 404
    assert client.get(f"/review/?view={shared.pk}").status_code == 302


def test_saving_the_same_name_again_replaces_the_view(client, reviewer):
    client.force_login(reviewer)
    _save(client, "risk=high", "Mine")

    _save(client, "risk=medium", "Mine", shared=True)

    view = QueueView.objects.get(owner=reviewer, name="Mine")
    assert (view.query, view.shared) == ("risk=medium", True)


def test_a_view_without_a_name_is_refused_and_the_queue_stays_as_it_was(client, reviewer, make_answer):
    high = make_answer(question="High?", risk="high")
    make_answer(question="Medium?", risk="medium")
    client.force_login(reviewer)

    response = _save(client, "risk=high", "  ")

    assert response.status_code == 400
    assert listed(response) == [high.pk]  # the filters it was saved from still apply
    assert not QueueView.objects.exists()


def test_only_the_owner_deletes_a_view(client, reviewer, second_reviewer):
    view = QueueView.objects.create(owner=reviewer, name="Team high", query="risk=high", shared=True)
    client.force_login(second_reviewer)

    assert client.post(f"/triage/views/{view.pk}/delete/").status_code == 404
    client.force_login(reviewer)
    assert client.post(f"/triage/views/{view.pk}/delete/").status_code == 302
    assert not QueueView.objects.exists()


def test_next_under_a_saved_view_hands_out_only_what_the_view_shows(client, reviewer, make_answer):
    make_answer(question="High?", risk="high")  # first in the queue's own order
    medium = make_answer(question="Medium?", risk="medium")
    view = QueueView.objects.create(owner=reviewer, name="Medium", query="risk=medium")
    client.force_login(reviewer)
    page = client.get(client.get(f"/review/?view={view.pk}")["Location"]).content.decode()
    assert f'action="/review/next/?queue=1&amp;risk=medium&amp;view={view.pk}"' in page

    response = client.post(f"/review/next/?queue=1&risk=medium&view={view.pk}")

    assert response["Location"] == medium.get_absolute_url()


def test_next_follows_the_views_sort(client, reviewer, make_answer):
    high = make_answer(question="High?", risk="high")
    medium = make_answer(question="Medium?", risk="medium")
    Answer.objects.filter(pk=high.pk).update(wrong_probability=0.3)
    Answer.objects.filter(pk=medium.pk).update(wrong_probability=0.95)
    client.force_login(reviewer)

    assert client.post("/review/next/?queue=1&sort=likely")["Location"] == medium.get_absolute_url()


def test_saved_views_need_the_reviewer_role(client, curator):
    client.force_login(curator)

    assert client.post("/triage/views/", {"name": "x", "query": ""}).status_code == 403


def test_a_shared_view_naming_a_document_above_the_viewers_clearance_is_not_offered(
        client, make_user, second_reviewer):
    from kb.models import Document

    owner = make_user("cleo", "reviewer", clearance="confidential")
    Document.objects.create(key="salary-bands", title="Salary bands", owner=owner, security_level="confidential")
    hidden = QueueView.objects.create(owner=owner, name="Pay questions", query="document=salary-bands", shared=True)
    client.force_login(second_reviewer)  # internal clearance

    page = client.get("/review/").content.decode()

    assert "Pay questions" not in page and "salary-bands" not in page
    assert client.get(f"/review/?view={hidden.pk}").status_code == 404


def test_a_view_whose_filters_were_changed_says_so_and_offers_to_save_under_its_name(client, reviewer):
    view = QueueView.objects.create(owner=reviewer, name="High", query="risk=high")
    client.force_login(reviewer)

    same = client.get(f"/review/?risk=high&view={view.pk}").content.decode()
    changed = client.get(f"/review/?risk=medium&view={view.pk}").content.decode()

    assert 'id="view-changed"' not in same
    assert 'id="view-changed"' in changed and 'value="High"' in changed
