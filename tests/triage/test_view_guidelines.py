"""Guidelines per saved view: Markdown, versioned with author and time, rendered safely; shown beside the queue when
the view is open and beside an answer opened from it; edited by the view's owner or, on a shared view, a lead."""

import pytest

from triage.models import QueueView, ViewGuideline

pytestmark = pytest.mark.django_db


@pytest.fixture
def view(reviewer):
    return QueueView.objects.create(owner=reviewer, name="Refunds", query="risk=high", shared=True)


def test_owner_saves_versions_with_author_and_time(client, reviewer, view):
    client.force_login(reviewer)

    first = client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Check the **refund window**."})
    client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Check the refund window *and* the fee."})

    assert first.status_code == 302
    versions = list(ViewGuideline.objects.filter(view=view).order_by("number"))
    assert [(g.number, g.author, g.created_at is not None) for g in versions] == [(1, reviewer, True),
                                                                                   (2, reviewer, True)]
    page = client.get(f"/triage/views/{view.pk}/guidelines/?version=1").content.decode()
    assert "<strong>refund window</strong>" in page and "an earlier version" in page


def test_saving_the_same_text_adds_no_version(client, reviewer, view):
    client.force_login(reviewer)
    client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Same."})
    client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Same.\r\n"})

    assert ViewGuideline.objects.filter(view=view).count() == 1


def test_script_in_guidelines_is_shown_as_text(client, reviewer, view):
    client.force_login(reviewer)
    client.post(f"/triage/views/{view.pk}/guidelines/",
                {"text": "<script>alert(1)</script>\n\n[x](javascript:alert(2))"})

    page = client.get(f"/review/?view={view.pk}", follow=True).content.decode()
    assert "<script>alert(1)" not in page and "href=\"javascript" not in page
    assert "&lt;script&gt;" in page


def test_another_reviewer_reads_but_cannot_edit_a_shared_view(client, second_reviewer, reviewer, view):
    ViewGuideline.objects.create(view=view, number=1, text="Read me.", author=reviewer)
    client.force_login(second_reviewer)

    page = client.get(f"/triage/views/{view.pk}/guidelines/")
    refused = client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Mine now."})

    assert page.status_code == 200 and "Read me." in page.content.decode()
    assert 'id="guidelines-form"' not in page.content.decode()
    assert refused.status_code == 403
    assert ViewGuideline.objects.filter(view=view).count() == 1


def test_a_lead_edits_a_shared_view(client, approver, view):
    client.force_login(approver)

    response = client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "Leads say: cite the page."})

    assert response.status_code == 302
    assert ViewGuideline.objects.get(view=view).author == approver


def test_a_private_view_is_not_found_for_others(client, second_reviewer, reviewer):
    private = QueueView.objects.create(owner=reviewer, name="Mine", query="risk=low")
    client.force_login(second_reviewer)

    assert client.get(f"/triage/views/{private.pk}/guidelines/").status_code == 404


def test_empty_guidelines_are_refused_with_a_reason(client, reviewer, view):
    client.force_login(reviewer)

    response = client.post(f"/triage/views/{view.pk}/guidelines/", {"text": "   "})

    assert response.status_code == 400
    assert not ViewGuideline.objects.exists()


def test_guidelines_show_on_the_queue_and_beside_an_answer_opened_from_the_view(client, reviewer, view,
                                                                                make_answer):
    answer = make_answer(risk="high")
    ViewGuideline.objects.create(view=view, number=1, text="Refunds: **14 days** is right.", author=reviewer)
    client.force_login(reviewer)

    queue = client.get(f"/review/?view={view.pk}", follow=True).content.decode()
    beside = client.get(f"/review/answers/{answer.pk}/").content.decode()
    client.get("/review/")  # the queue without the view: its guidelines no longer apply
    without = client.get(f"/review/answers/{answer.pk}/").content.decode()

    assert 'id="view-guidelines"' in queue and "<strong>14 days</strong>" in queue
    assert 'id="view-guidelines"' in beside and "<strong>14 days</strong>" in beside
    assert 'id="view-guidelines"' not in without
