"""Finding work in the queue: search in questions, answers and claims (English and Chinese), client, source document and date filters; bulk approve of
low-risk audit samples."""

from datetime import timedelta

import pytest
from django.utils import timezone

from kb.models import Chunk
from review.models import Answer, ApiClient, Decision

pytestmark = pytest.mark.django_db


def _listed(response) -> set[int]:
    return {int(part.split('"')[0]) for part in response.content.decode().split('id="answer-')[1:]}


def test_search_by_question_text(client, reviewer, make_answer):
    refund = make_answer(question="What is the refund window for shoes?")
    make_answer(question="How do I reset my password?",
                claims=[("Use the link on the sign-in page.", "uncertain", 0.5)])
    client.force_login(reviewer)

    assert _listed(client.get("/review/?q=REFUND")) == {refund.pk}


def test_search_finds_the_words_of_a_claim_and_of_the_answer_in_any_order(client, reviewer, make_answer):
    gym = make_answer(question="What can I claim on a trip?",
                      claims=[("Hotel gym fees are reimbursed up to $50 a day.", "uncertain", 0.5)])
    make_answer(question="What about meals?", claims=[("Meals are covered up to $70 a day.", "uncertain", 0.5)])
    client.force_login(reviewer)

    assert _listed(client.get("/review/?q=gym+reimbursed")) == {gym.pk}
    assert _listed(client.get("/review/?q=REIMBURSED+hotel")) == {gym.pk}
    assert _listed(client.get("/review/?q=gym+meals")) == set()  # every word must be found


def test_search_finds_a_chinese_claim(client, reviewer, make_answer):
    gym = make_answer(question="出差可以报销什么？", claims=[("出差期间酒店健身房费用每天可报销五十元。", "uncertain", 0.5)])
    make_answer(question="餐费呢？", claims=[("餐费每天可报销七十元。", "uncertain", 0.5)])
    client.force_login(reviewer)

    assert _listed(client.get("/review/?q=健身房费用")) == {gym.pk}
    assert _listed(client.get("/review/?q=报销")) == {gym.pk, *_listed(client.get("/review/?q=餐费"))}
    page = client.get("/review/").content.decode()
    assert "Search questions, answers and claims" in page


def test_filter_by_client_and_received_date(client, reviewer, make_answer):
    mine = make_answer(question="From the default client?")
    other = make_answer(question="From the shop?")
    shop = ApiClient.objects.create(name="shop", token_prefix="x", token_hash="h" * 64)
    Answer.objects.filter(pk=other.pk).update(client=shop)
    old = make_answer(question="Old?")
    Answer.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    client.force_login(reviewer)
    today = timezone.localdate().isoformat()

    assert _listed(client.get(f"/review/?client={shop.pk}")) == {other.pk}
    assert _listed(client.get(f"/review/?received_from={today}")) == {mine.pk, other.pk}
    assert old.pk in _listed(client.get(f"/review/?received_to={(timezone.localdate() - timedelta(days=5))}"))
    assert client.get("/review/?received_from=not-a-date").status_code == 200  # ignored, said on the page


def test_filter_by_source_document_offers_only_readable_documents(client, reviewer, make_answer, publish):
    policy = publish("# Policy\n\n## Refunds\n\nRefunds within 30 days.\n", key="refund-policy")
    publish("# Plan\n\n## Merger\n\nThe merger closes in May.\n", key="merger-plan", security_level="restricted")
    chunk = Chunk.objects.filter(version=policy).first()
    citing = make_answer(question="Refunds?", chunk=chunk)
    make_answer(question="Nothing cited?")
    client.force_login(reviewer)

    page = client.get("/review/?document=refund-policy")

    assert _listed(page) == {citing.pk}
    assert 'value="refund-policy"' in page.content.decode() and "merger-plan" not in page.content.decode()


def test_bulk_approve_sends_only_the_ticked_low_risk_audit_samples(client, reviewer, make_answer):
    sample = make_answer(question="Sample?", risk="low", claims=[("A.", "supported", 0.9)])
    other_sample = make_answer(question="Other sample?", risk="low", claims=[("B.", "supported", 0.9)])
    medium = make_answer(question="Medium?", risk="medium", claims=[("C.", "supported", 0.9)])
    Answer.objects.filter(pk__in=[sample.pk, other_sample.pk]).update(sampled_for_audit=True)
    client.force_login(reviewer)

    queue = client.get("/review/").content.decode()
    response = client.post("/review/audit-samples/approve/", {"answers": [sample.pk, medium.pk]}, follow=True)

    assert f'value="{sample.pk}" form="bulk" aria-label="Select answer {sample.pk}" data-audit-sample' in queue
    assert f'value="{medium.pk}" form="bulk" aria-label="Select answer {medium.pk}">' in queue  # for the other actions
    assert "Approved and sent 1 audit sample(s). 1 left for one-by-one review" in response.content.decode()
    statuses = dict(Answer.objects.values_list("pk", "status"))
    assert statuses == {sample.pk: "approved", other_sample.pk: "pending_review", medium.pk: "pending_review"}
    assert Decision.objects.get(answer=sample).reviewer == reviewer


def test_bulk_approve_with_nothing_ticked_says_so(client, reviewer):
    client.force_login(reviewer)

    response = client.post("/review/audit-samples/approve/", {"answers": ["x"]})

    assert response.status_code == 400
    assert "Tick the audit samples to approve first." in response.content.decode()
