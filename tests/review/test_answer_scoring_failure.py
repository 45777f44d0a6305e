"""When scoring crashes, the answer waits for a person cleared like its client: the evidence it might rest on is
unknown, so the most restrictive level the client could see applies."""


import pytest

from review import services
from review.models import Answer
from tests.conftest import wait_scored

BODY = {"question": "What does the merger agreement say?", "answer": "The merger closes in March."}


@pytest.fixture
def confidential_api(client, db):
    _, token = services.api_client_create(name="legal-assistant", clearance="confidential")
    return lambda path, body: client.post(path, data=body, content_type="application/json",
                                          headers={"Authorization": f"Bearer {token}"})



def test_a_crashed_scoring_leaves_the_answer_to_reviewers_cleared_like_the_client(
        celery_worker, confidential_api, client, make_user, settings):
    from kb.embeddings import get_provider

    settings.KB_EMBEDDING_PROVIDER = "nonsense"  # retrieval cannot embed the claims: scoring raises
    get_provider.cache_clear()
    try:
        response = confidential_api("/api/v1/answers", BODY)
        assert response.status_code == 202
        answer = wait_scored(response.json()["id"])
    finally:
        get_provider.cache_clear()

    assert (answer.status, answer.risk) == ("pending_review", "high")
    assert answer.routing_reasons[0].startswith("automatic checking failed: ImproperlyConfigured")
    assert answer.evidence_level == "confidential"
    client.force_login(make_user("ines", "reviewer", clearance="internal"))
    assert client.get(f"/review/answers/{answer.pk}/").status_code == 404
    client.force_login(make_user("cleo", "reviewer", clearance="confidential"))
    page = client.get(f"/review/answers/{answer.pk}/")
    assert page.status_code == 200
    assert "The merger closes in March." in page.content.decode()


def test_scoring_failure_raises_the_level_of_an_answer_received_as_public(db):
    client, _ = services.api_client_create(name="hr-assistant", clearance="restricted")
    answer = Answer.objects.create(client=client, question="Salary bands?", text="Band 4 starts at 60k.",
                                   evidence_level="public")  # as stored before intake set the client's level

    services.answer_scoring_failed(answer_id=answer.pk, error="RuntimeError: checker crashed")

    answer.refresh_from_db()
    assert (answer.status, answer.evidence_level) == ("pending_review", "restricted")
    assert answer.scoring_error == "RuntimeError: checker crashed"


def test_an_answer_waiting_for_scoring_is_only_visible_at_the_clients_clearance(confidential_api, client, make_user):
    response = confidential_api("/api/v1/answers", BODY)

    answer = Answer.objects.get(pk=response.json()["id"])
    assert (answer.status, answer.evidence_level) == ("scoring", "confidential")
    client.force_login(make_user("ines", "reviewer", clearance="internal"))
    assert client.get(f"/review/answers/{answer.pk}/").status_code == 404
