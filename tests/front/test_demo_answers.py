"""The demo's answers, scored by the real worker against the demo knowledge base, show every tier."""

import time

import pytest
from django.core.management import call_command

from front.demo_answers import DEMO_ANSWERS
from kb.models import DocumentVersion
from tests.conftest import wait_scored

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_answers_cover_all_three_tiers(api, celery_worker, settings):
    settings.REVIEW_AUDIT_SAMPLE_RATE = 0
    call_command("seed_demo")
    deadline = time.monotonic() + 120
    while DocumentVersion.objects.exclude(index_state="ready").exists() and time.monotonic() < deadline:
        time.sleep(0.2)

    risks = {}
    for demo in DEMO_ANSWERS:
        response = api.post("/api/v1/answers", {"question": demo["question"], "answer": demo["answer"]})
        risks[demo["external_id"]] = wait_scored(response.json()["id"]).risk

    assert set(risks.values()) == {"high", "medium", "low"}, risks
    assert risks["demo-number-swap"] == "high" and risks["demo-unverifiable"] == "medium"
