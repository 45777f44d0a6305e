"""The Ask page: staff only, the asker's clearance limits retrieval, the answer shows each claim beside its quote."""

import pytest

from ask.models import Ask
from tests.ask.conftest import KB, VAULT

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_see_the_empty_page_with_the_nav_link(client, reviewer):
    client.force_login(reviewer)
    page = client.get("/ask/").content.decode()
    assert 'hx-post="/ask/submit/"' in page and 'name="csrfmiddlewaretoken"' in page
    assert "Type a question and press Enter" in page
    assert 'href="/ask/" aria-current="page">Ask</a>' in page


@pytest.mark.parametrize("who", ["viewer_user", "outsider"])
def test_a_role_without_access_gets_403(client, request, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get("/ask/").status_code == 403
    assert client.post("/ask/submit/", {"question": "Refunds?"}).status_code == 403
    assert not Ask.objects.exists()


def test_an_answer_shows_each_claim_beside_its_quote_and_links_the_review_item(
        client, reviewer, celery_worker, publish, quiet_topics, settings):
    publish(KB, key="workspace-faq", title="Workspace FAQ")
    client.force_login(reviewer)

    response = client.post("/ask/submit/", {"question": "When does the support team answer email?"},
                           headers={"HX-Request": "true"})

    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-ask-status="answered"' in page
    assert '<mark class="quote">Our support team answers email Monday through Friday, 8:00 a.m. to 6:00 p.m.</mark>' in page
    ask = Ask.objects.get()
    assert ask.user == reviewer and ask.answer is not None
    assert f'href="/review/answers/{ask.answer.pk}/"' in page
    assert ask.answer.client.clearance == reviewer.clearance and not ask.answer.client.is_active
    assert ask.answer.sandbox  # a person trying questions: left out of production figures


def test_the_askers_clearance_limits_retrieval(client, reviewer, celery_worker, publish):
    publish(VAULT, key="vault-codes", security_level="restricted")
    client.force_login(reviewer)  # internal clearance

    page = client.post("/ask/submit/", {"question": "How often is the server room door code changed?"},
                       headers={"HX-Request": "true"}).content.decode()

    assert 'data-ask-status="insufficient_evidence"' in page
    assert ">Insufficient evidence</span>" in page  # the readable label, not the stored value
    assert "9 days" not in page


def test_an_empty_question_is_a_400_with_the_form(client, reviewer):
    client.force_login(reviewer)
    response = client.post("/ask/submit/", {"question": "  "})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_the_routing_and_composer_are_shown_in_the_readers_language_while_the_api_values_stay_english():
    from django.utils import translation

    from ask.services import AskResult

    result = AskResult(ask_id=1, status="answered", answer="…", claims=[], missing_terms=[], conflicts=[],
                       routing="waits for review", generator="extractive")
    with translation.override("zh-hans"):
        assert (result.routing_label, result.generator_label) == ("等待审核", "抽取式")
    assert result.routing == "waits for review"
