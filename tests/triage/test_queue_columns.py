"""The queue's columns (reason, client, tier, likely wrong, age with SLA, assignee), chosen per URL, and its
sortable headers, which keep the filters."""

import html

import pytest

from review.models import Answer
from tests.triage.conftest import listed

pytestmark = pytest.mark.django_db


def test_queue_shows_reason_client_likely_wrong_and_sla_columns(client, reviewer, make_answer):
    answer = make_answer(question="Refund window?", risk="high")
    Answer.objects.filter(pk=answer.pk).update(
        routing_reasons=["claim 1 contradicted: 45 days, evidence says 30 days", "high-risk topic: refunds"],
        wrong_probability=0.83)
    client.force_login(reviewer)

    page = client.get("/review/").content.decode()
    row = page[page.index(f'id="answer-{answer.pk}"'):]
    row = row[:row.index("</tr>")]

    assert "claim 1 contradicted: 45 days, evidence says 30 days" in html.unescape(row)
    assert "+1 more" in row
    assert '<td data-column="client">assistant</td>' in row
    assert "83%" in row
    assert "due in" in row  # the high-risk SLA (30 minutes) has not run out


def test_cols_in_the_url_choose_the_columns(client, reviewer, make_answer):
    make_answer(question="Refund window?")
    client.force_login(reviewer)

    page = client.get("/review/?cols=client&cols=assignee").content.decode()

    assert 'data-column="client"' in page and 'data-column="assignee"' in page
    assert 'data-column="probability"' not in page and 'data-column="reason"' not in page
    assert 'data-column="risk"' not in page


def test_an_unknown_column_is_refused_and_every_column_shown(client, reviewer, make_answer):
    make_answer(question="Refund window?")
    client.force_login(reviewer)

    page = client.get("/review/?cols=salary").content.decode()

    assert "Select a valid choice" in page
    assert 'data-column="reason"' in page


def test_sort_headers_keep_the_filters(client, reviewer, make_answer):
    make_answer(question="Refund window?")
    client.force_login(reviewer)

    page = html.unescape(client.get("/review/?risk=medium&cols=client&cols=probability").content.decode())

    assert 'href="?risk=medium&cols=client&cols=probability&sort=likely"' in page
    assert 'href="?risk=medium&cols=client&cols=probability&sort=client"' in page


def test_sort_by_likely_wrong_puts_the_likeliest_first_across_tiers(client, reviewer, make_answer):
    high = make_answer(question="High?", risk="high")
    medium = make_answer(question="Medium?", risk="medium")
    Answer.objects.filter(pk=high.pk).update(wrong_probability=0.4)
    Answer.objects.filter(pk=medium.pk).update(wrong_probability=0.9)
    client.force_login(reviewer)

    assert listed(client.get("/review/")) == [high.pk, medium.pk]  # the tier first by default
    assert listed(client.get("/review/?sort=likely")) == [medium.pk, high.pk]


def test_sort_by_client_orders_by_the_client_name(client, reviewer, answer_from, other_client, api_token):
    assistant, _token = api_token
    from_assistant = answer_from(assistant, question="From assistant?", risk="medium")
    from_helpdesk = answer_from(other_client, question="From helpdesk?", risk="high")
    client.force_login(reviewer)

    assert listed(client.get("/review/?sort=client")) == [from_assistant.pk, from_helpdesk.pk]


def test_age_header_toggles_between_oldest_and_newest_first(client, reviewer, make_answer):
    make_answer(question="Refund window?")
    client.force_login(reviewer)

    assert 'href="?sort=oldest"' in html.unescape(client.get("/review/").content.decode())
    assert 'href="?sort=newest"' in html.unescape(client.get("/review/?sort=oldest").content.decode())
