"""integrations/nemoguardrails with the real NeMo Guardrails package against the running console (live server,
real worker): NeMo's own AlignScore request, the `review_console` provider, and a full LLMRails turn whose chat
model is a local fake OpenAI-compatible server."""

import asyncio
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from nemoguardrails import LLMRails, RailsConfig
from nemoguardrails.library.factchecking.align_score.request import alignscore_request
from nemoguardrails.rails.llm.options import GenerationOptions

from integrations.nemoguardrails import Console, ConsoleError, ReviewConsoleIndex
from integrations.nemoguardrails.delivery import decision_from_webhook, decision_poll
from review import services
from review.models import Answer

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "integrations" / "nemoguardrails" / "example"
TRAVEL = """# Travel policy

## Hotels

The nightly hotel cap in London is 250 pounds, breakfast included.

## Flights

Economy class is required for flights shorter than six hours.
"""
MERGER = """# Merger plan

## Hotels

The board books the London hotel for the Globex merger talks at 900 pounds a night.
"""


QUESTION = "How much may I spend on a London hotel?"


def _off_loop(call):
    """NeMo runs an event loop of its own (asyncio.run, or `generate`'s): in a thread of its own, so that a loop
    another test left running in this one (Playwright's sync API keeps one while its browser lives) is no matter."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


@pytest.fixture
def console(live_server, api_token, monkeypatch, settings):
    """The console's URL and an internal client's token, where the provider and the action look for them."""
    settings.API_ALIGNSCORE_ENABLED = True
    monkeypatch.setenv("REVIEW_CONSOLE_URL", live_server.url)
    monkeypatch.setenv("REVIEW_CONSOLE_TOKEN", api_token[1])
    return live_server.url


def test_nemos_alignscore_request_gets_the_consoles_score_for_string_and_list_evidence(console, celery_worker):
    claim = "Passwords need 14 or more characters."
    chunks = ["Shipping is free for orders over 50 euros.", "Passwords must be at least 14 characters long."]

    as_string = _off_loop(lambda: asyncio.run(alignscore_request(console + "/alignscore_large", chunks[1], claim)))
    as_list = _off_loop(lambda: asyncio.run(alignscore_request(console + "/alignscore_base", chunks, claim)))

    assert as_string == services.answer_check_on_worker(answer_text=claim, contexts=chunks[1:], clearance="public",
                                                        retrieve=False)["score"]
    assert as_list == services.answer_check_on_worker(answer_text=claim, contexts=chunks, clearance="public",
                                                      retrieve=False)["score"]
    assert as_list >= 0.6


def test_the_provider_returns_only_approved_effective_chunks_within_the_clients_clearance(console, publish):
    now = timezone.now()
    travel = publish(TRAVEL, key="travel-policy", title="Travel policy")
    publish(MERGER, key="merger-plan", security_level="confidential")
    publish(TRAVEL.replace("250", "300"), key="draft-travel", approve=False)
    publish(TRAVEL.replace("250", "180"), key="old-travel", effective_from=now - timedelta(days=30),
            expires_at=now - timedelta(days=1))

    items = _off_loop(lambda: asyncio.run(ReviewConsoleIndex().search("London hotel cap per night", max_results=10)))

    assert {item.meta["document_key"] for item in items} == {"travel-policy"}
    hotels = next(item for item in items if "250 pounds" in item.text)
    assert hotels.meta == {
        "title": hotels.meta["title"], "body": hotels.text, "document_key": "travel-policy",
        "document_title": "Travel policy", "version": travel.number, "chunk_id": hotels.meta["chunk_id"],
        "char_start": hotels.meta["char_start"], "char_end": hotels.meta["char_end"], "owner": "cora",
        "score": hotels.meta["score"],
    }
    assert TRAVEL[hotels.meta["char_start"]:hotels.meta["char_end"]] == hotels.text
    assert "Hotels" in hotels.meta["title"]


def _chat_reply(text: str) -> dict:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o-mini",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _example_bot(*, console_url: str, llm_url: str) -> LLMRails:
    """The example bot as shipped, with the two addresses a deployment sets pointed at this test's servers."""
    config = RailsConfig.from_path(str(EXAMPLE))
    config.models[0].parameters["base_url"] = llm_url
    config.models[0].parameters["api_key"] = "test"
    config.rails.config.fact_checking.parameters["endpoint"] = console_url + "/alignscore_large"
    return LLMRails(config)


def test_a_turn_retrieves_from_the_console_fact_checks_through_it_and_holds_a_doubtful_answer(
        console, celery_worker, publish, receiver, monkeypatch):
    publish(TRAVEL, key="travel-policy", title="Travel policy")
    monkeypatch.setenv("REVIEW_CONSOLE_CALLBACK_URL", receiver.url + "/decided")  # where the decision will go
    receiver.respond(200, _chat_reply("The nightly hotel cap in London is 250 pounds."))
    bot = _example_bot(console_url=console, llm_url=receiver.url + "/v1")

    response = _off_loop(lambda: bot.generate(messages=[{"role": "user", "content": QUESTION}],
                                              options=GenerationOptions(log={"activated_rails": True})))

    prompt = str(receiver.requests[0]["body"])
    assert "250 pounds, breakfast included" in prompt  # the console's chunk was in the model's prompt
    executed = {action.action_name: action.return_value for rail in response.log.activated_rails
                for action in rail.executed_actions}
    assert executed["alignscore_check_facts"].metadata["accuracy"] >= 0.5  # the console scored it: passed on
    review = executed["review_console_check"]
    assert review["released"] is False
    assert response.response[0]["content"] == (
        "A person is checking this answer; you will get it as soon as it is approved.")
    answer = Answer.objects.get(pk=review["answer_id"])
    assert answer.status == "pending_review"
    assert answer.question == "How much may I spend on a London hotel?"
    assert [claim.text for claim in answer.claims.all()] == ["The nightly hotel cap in London is 250 pounds."]
    assert answer.citations  # the chunks the bot answered from
    assert answer.callback_url == receiver.url + "/decided"
    assert "fastembed" not in sys.modules  # nothing embedded in the bot's process, so no model fetched


def test_a_contradicted_answer_is_blocked_by_the_fact_check_and_never_queued(
        console, celery_worker, publish, receiver):
    publish(TRAVEL, key="travel-policy", title="Travel policy")
    receiver.respond(200, _chat_reply("The nightly hotel cap in London is 400 pounds."))
    bot = _example_bot(console_url=console, llm_url=receiver.url + "/v1")

    response = _off_loop(lambda: bot.generate(messages=[{"role": "user", "content": QUESTION}],
                                              options=GenerationOptions(log={"activated_rails": True})))

    executed = {action.action_name: action.return_value for rail in response.log.activated_rails
                for action in rail.executed_actions}
    assert executed["alignscore_check_facts"].metadata["accuracy"] < 0.5
    assert "review_console_check" not in executed
    assert "400" not in response.response[0]["content"]
    assert not Answer.objects.exists()


def test_the_readme_shows_the_example_bots_lines_as_the_tests_use_them():
    readme = (EXAMPLE.parents[2] / "README.md").read_text()
    config = (EXAMPLE / "config.yml").read_text()
    begin, end = "# --- review console: begin ---", "# --- review console: end ---"

    assert config[config.index(begin):config.index(end) + len(end)] in readme
    assert (EXAMPLE / "config.py").read_text().strip() in readme
    assert (EXAMPLE / "rails.co").read_text().strip() in readme


def test_an_answer_the_console_refuses_is_not_given_and_the_user_is_told(
        console, celery_worker, publish, receiver, settings):
    """The console takes at most API_MAX_CLAIMS claims: both its endpoints refuse this answer, NeMo's AlignScore
    action lets a failed request pass, and the review action must not."""
    publish(TRAVEL, key="travel-policy", title="Travel policy")
    settings.API_MAX_CLAIMS = 1
    receiver.respond(200, _chat_reply("The nightly hotel cap in London is 250 pounds. Breakfast is included."))
    bot = _example_bot(console_url=console, llm_url=receiver.url + "/v1")

    response = _off_loop(lambda: bot.generate(messages=[{"role": "user", "content": QUESTION}]))

    assert response["content"] == ("I can't check this answer right now, so I won't give it. "
                                   "Please try again shortly.")
    assert not Answer.objects.exists()


def test_a_misspelt_provider_parameter_is_named():
    with pytest.raises(ConsoleError, match="unknown parameter.* tokn; known: callback_url, review_wait_seconds"):
        ReviewConsoleIndex(url="http://localhost:8000", tokn="x")


def test_a_held_answer_once_approved_reaches_the_bot_by_its_signed_webhook_and_by_a_poll(
        console, celery_worker, publish, receiver, monkeypatch, api_token, reviewer):
    """What the bot gives the user after "a person is checking this answer": the released text, from the webhook
    the console signs with the API client's secret (a tampered body is refused), or from a poll."""
    publish(TRAVEL, key="travel-policy", title="Travel policy")
    monkeypatch.setenv("REVIEW_CONSOLE_CALLBACK_URL", receiver.url + "/decided")
    receiver.respond(200, _chat_reply("The nightly hotel cap in London is 250 pounds."))
    bot = _example_bot(console_url=console, llm_url=receiver.url + "/v1")
    response = _off_loop(lambda: bot.generate(messages=[{"role": "user", "content": QUESTION}],
                                              options=GenerationOptions(log={"activated_rails": True})))
    answer_id = next(action.return_value for rail in response.log.activated_rails for action in rail.executed_actions
                     if action.action_name == "review_console_check")["answer_id"]
    answer = Answer.objects.get(pk=answer_id)
    assert _off_loop(lambda: asyncio.run(decision_poll(Console.configured(), answer_id=answer_id))) is None

    for claim in answer.claims.all():
        services.claim_review(claim=claim, reviewer=reviewer, state="confirmed")
    services.answer_decide(answer=answer, reviewer=reviewer, action="approve", reason="checked against the policy")

    deadline = time.monotonic() + 30
    while not (hooks := [r for r in receiver.requests if r["path"] == "/decided"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    body, signature = hooks[0]["body"], hooks[0]["headers"]["X-Signature"]
    decision = decision_from_webhook(body=body, signature=signature, secret=api_token[0].webhook_secret)
    assert (decision.answer_id, decision.status) == (answer_id, "approved")
    assert decision.released_text == "The nightly hotel cap in London is 250 pounds."
    polled = _off_loop(lambda: asyncio.run(decision_poll(Console.configured(), answer_id=answer_id)))
    assert polled == decision
    with pytest.raises(ConsoleError, match="signature"):
        decision_from_webhook(body=body.replace(b"250", b"950"), signature=signature,
                              secret=api_token[0].webhook_secret)
