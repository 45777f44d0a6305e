"""A claim about the sources ("The passages do not mention X", 段落中没有提到X) on the real worker and the review page:
supported while no source states X, contradicted where one does, and shown with its own finding badge."""

import pytest

from tests.conftest import wait_scored

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Leave policy

## Marriage leave

Employees get 3 days of marriage leave, paid in full.
"""


def test_a_claim_about_the_sources_is_checked_and_shown_as_one(api, celery_worker, publish, settings, client,
                                                                reviewer):
    settings.REVIEW_HIGH_RISK_TOPICS = []
    publish(POLICY, key="leave-policy", title="Leave policy")

    checked = api.post("/api/v1/check", {
        "question": "How long is marriage leave?",
        "answer": "Based on the given passages, employees get 3 days of marriage leave. "
                  "The passages do not mention paternity leave. "
                  "The passages do not say that employees get 3 days of marriage leave, paid in full.",
    })
    assert checked.status_code == 200, checked.content
    leave, lacked, stated = checked.json()["claims"]
    assert leave["text"] == "employees get 3 days of marriage leave."  # the framing is no part of it
    assert lacked["verdict"] == "supported"
    assert stated["verdict"] == "contradicted"

    posted = api.post("/api/v1/answers", {"question": "Is there paternity leave?",
                                          "answer": "The passages do not mention paternity leave."})
    answer = wait_scored(posted.json()["id"])
    client.force_login(reviewer)
    page = client.get(answer.get_absolute_url())
    assert page.status_code == 200
    assert "not in the sources, as claimed" in page.content.decode()
