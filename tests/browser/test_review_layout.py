"""Layout of the review page and the queue (#24 item 6): at 1280–1920 px the decision panel never covers the claim
cards or any other card, wherever the page is scrolled; on a phone the cards stack, every action is in reach and the
queue's first row is on the first screen."""

from __future__ import annotations

import os

import pytest

from kb.models import Chunk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""
# CONSOLE_SCREENSHOTS=<dir> keeps the pictures of each width (for looking at them); otherwise none are kept.
SCREENSHOTS = os.environ.get("CONSOLE_SCREENSHOTS", "")


def _shot(page, name: str) -> None:
    if SCREENSHOTS:
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, f"{name}.png"), full_page=False)


@pytest.fixture
def held_answer(publish, make_answer, reviewer):
    from review import leases

    version = publish(POLICY, key="expense-policy")
    chunk = Chunk.objects.get(version=version, heading_path="Expense policy > Submission")
    answers = [make_answer(
        risk="high", chunk=chunk, question=f"When are expense reports due ({n}), and is alcohol reimbursed?",
        claims=[("Expense reports are due within 30 days after the trip ends.", "supported", 0.9),
                ("Alcohol is reimbursed at dinners with clients when a manager approves it in writing.",
                 "contradicted", 0.2),
                ("The per diem is $65 per day.", "supported", 0.8),
                ("Receipts are needed for every meal.", "uncertain", 0.5),
                ("Reports go to the finance team by email.", "not_found", 0.1)],
    ) for n in range(3)]
    leases.answer_lease_take(answer=answers[0], reviewer=reviewer)  # the decision panel is the reviewer's
    return answers[0]


# The decision panel's box and every other card's box as far as it shows: a card scrolled out of a scrolling box
# is clipped by it (a bounding box alone would still reach under the panel).
VISIBLE_BOXES = """() => {
  const visible = (element) => {
    let {left, top, right, bottom} = element.getBoundingClientRect();
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (getComputedStyle(parent).overflowY === "visible") continue;
      const clip = parent.getBoundingClientRect();
      left = Math.max(left, clip.left); top = Math.max(top, clip.top);
      right = Math.min(right, clip.right); bottom = Math.min(bottom, clip.bottom);
    }
    return {x: left, y: top, width: Math.max(right - left, 0), height: Math.max(bottom - top, 0)};
  };
  const panel = document.querySelector("#decision-panel");
  const cards = [...document.querySelectorAll("[data-claim-card], .review-layout .card")].filter((c) => c !== panel);
  return [visible(panel), cards.map(visible)];
}"""


def _overlap(first: dict, second: dict) -> float:
    """The area two boxes share (0 when they only touch)."""
    width = min(first["x"] + first["width"], second["x"] + second["width"]) - max(first["x"], second["x"])
    height = min(first["y"] + first["height"], second["y"] + second["height"]) - max(first["y"], second["y"])
    return max(width, 0) * max(height, 0)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1440, 900), (1920, 1080)])
def test_the_decision_panel_never_covers_the_claim_cards(page, login, reviewer, held_answer, width, height):
    page.set_viewport_size({"width": width, "height": height})
    login(reviewer)
    page.goto(held_answer.get_absolute_url())
    assert page.locator("[data-claim-card]").count() == 5

    total = page.evaluate("document.documentElement.scrollHeight")
    for offset in [*range(0, total, height // 3), total]:
        page.evaluate(f"window.scrollTo(0, {offset})")
        panel, cards = page.evaluate(VISIBLE_BOXES)
        assert len(cards) >= 5
        for index, box in enumerate(cards):
            assert _overlap(panel, box) == 0, f"at {width}x{height}, scrolled {offset}: card {index} covered"
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, f"review-{width}")
    approve = page.locator("#approve-button").bounding_box()
    assert 0 <= approve["y"] and approve["y"] + approve["height"] <= height  # the decision is in view at once


def test_on_a_phone_the_cards_stack_and_every_action_is_in_reach(page, login, reviewer, held_answer):
    page.set_viewport_size({"width": 390, "height": 844})
    login(reviewer)
    page.goto(held_answer.get_absolute_url())
    _shot(page, "review-390")

    boxes = [page.locator("[data-claim-card]").nth(i).bounding_box() for i in range(5)]
    for above, below in zip(boxes, boxes[1:]):
        assert below["y"] >= above["y"] + above["height"]  # one column
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    for selector in ("#approve-button", "[data-shortcut='reject-answer']", "[data-claim-card] button[value=confirmed]",
                     "[data-claim-card] button[value=rejected]", "#skip-button"):
        action = page.locator(selector).first
        action.scroll_into_view_if_needed()
        box = action.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
        assert box["height"] >= 40, f"{selector} is {box['height']} px tall: too small for a thumb"


def test_on_a_phone_the_queues_first_row_is_on_the_first_screen(page, login, reviewer, held_answer):
    page.set_viewport_size({"width": 390, "height": 844})
    login(reviewer)
    page.goto("/review/")
    _shot(page, "queue-390")

    first_row = page.locator("#queue-rows tr, #queue-rows [data-answer-row], #queue-rows .queue-row").first
    box = first_row.bounding_box()

    assert box is not None and box["y"] < 844, f"the first row starts {box and box['y']} px down"
