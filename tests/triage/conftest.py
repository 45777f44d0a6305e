import pytest


@pytest.fixture
def other_client(db):
    """A second API client, so answers differ by who sent them."""
    from review.services import api_client_create

    client, _token = api_client_create(name="helpdesk", clearance="internal")
    return client


@pytest.fixture
def answer_from(make_answer):
    """An answer waiting for review, sent by `client`."""
    from review.models import Answer

    def make(client, **kwargs):
        answer = make_answer(**kwargs)
        Answer.objects.filter(pk=answer.pk).update(client=client)
        answer.refresh_from_db()
        return answer

    return make


def listed(response) -> list[int]:
    """The answer ids of a queue page, in their order."""
    import re

    return [int(n) for n in re.findall(r'<tr id="answer-(\d+)"', response.content.decode())]
