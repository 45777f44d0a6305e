"""The dashboard's production figures leave the Ask page's answers out and show them apart (#24 item 5)."""

import pytest
from django.utils import timezone

from review.models import Answer

pytestmark = pytest.mark.django_db


def _released(answer) -> None:
    Answer.objects.filter(pk=answer.pk).update(status="released", released_at=timezone.now(), released_text=answer.text)


def test_ask_page_answers_are_left_out_of_production_figures_and_shown_apart(client, reviewer, make_answer):
    _released(make_answer(risk="low"))
    make_answer(risk="high")
    for answer in (make_answer(risk="low"), make_answer(risk="low"), make_answer(risk="medium")):
        Answer.objects.filter(pk=answer.pk).update(sandbox=True)
    _released(Answer.objects.filter(sandbox=True).first())
    _released(Answer.objects.filter(sandbox=True, status="pending_review", risk="low").first())
    client.force_login(reviewer)

    page = client.get("/").content.decode()

    assert '<dd class="stat-small" id="released-today">1</dd>' in page
    assert 'aria-label="Queue depth by risk: high 1, medium 0, low 0"' in page
    assert ("<strong>Ask page (sandbox)</strong>, not counted above: 3 asked today, 2 sent today, "
            "1 waiting for review.") in page


def test_the_review_page_marks_a_sandbox_answer(client, reviewer, make_answer):
    answer = make_answer()
    Answer.objects.filter(pk=answer.pk).update(sandbox=True)
    client.force_login(reviewer)

    page = client.get(answer.get_absolute_url()).content.decode()

    assert "data-sandbox" in page and ">sandbox</span>" in page
