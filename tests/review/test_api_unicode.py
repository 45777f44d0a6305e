"""Odd but valid Unicode through the API on the real worker: superscript and full-width digits, bidi marks,
emoji. Intake takes it (202), scoring finishes without "automatic checking failed", /check answers 200."""

import pytest

from tests.conftest import wait_scored

pytestmark = pytest.mark.django_db(transaction=True)

POLICY = """# Office

## Space

Each office is 12 km² of floor space. The Berlin office opens at 9:00.
"""

ODD_ANSWERS = [
    "Each office is 12 km² of floor space.",
    "Each office is １２ km² of floor space.",  # full-width digits
    "\u200fEach office is 12 km\u00b2 of floor space.\u200e",  # right-to-left and left-to-right marks
    "Each office is 12 km² of floor space 🏢👩‍👩‍👧. The Berlin office opens at 9:00 🇩🇪.",
    "\u202eEach office is 10² km² of floor space.",  # right-to-left override, superscript exponent
    "مكتب برلين يفتح الساعة ٩:٠٠. The Berlin office opens at ९:००.",  # Arabic-Indic and Devanagari digits
]



@pytest.fixture
def office(publish):
    return publish(POLICY, key="office")


def test_odd_unicode_answers_are_taken_and_scored(api, celery_worker, office):
    ids = []
    for text in ODD_ANSWERS:
        response = api.post("/api/v1/answers", {"question": "How big is an office?", "answer": text})
        assert response.status_code == 202, (text, response.content)
        ids.append(response.json()["id"])

    for answer_id, text in zip(ids, ODD_ANSWERS, strict=True):
        answer = wait_scored(answer_id)
        assert answer.text == text
        assert answer.score is not None, (text, answer.routing_reasons)
        assert not any("checking failed" in reason for reason in answer.routing_reasons), answer.routing_reasons
        assert answer.claims.exists()


@pytest.mark.parametrize("text", ODD_ANSWERS)
def test_odd_unicode_checks_answer_200(api, celery_worker, office, text):
    response = api.post("/api/v1/check", {"answer": text, "question": "How big is an office?",
                                          "contexts": ["Offices measure ¹²/₃ km²; ☎ ＋４９."]})

    assert response.status_code == 200, response.content
    assert response.json()["claims"]
