"""Roles without dead ends (#24 item 5): every link a role is shown leads to a page it may open. Each role walks the
console from the dashboard, following every link on every page it reaches, and never meets a 403."""

from __future__ import annotations

import re
from collections import deque
from datetime import timedelta
from html import unescape
from urllib.parse import urldefrag, urlparse

import pytest
from django.utils import timezone

from review.models import Answer, SourceCorrection

pytestmark = pytest.mark.django_db

POLICY = """# Expense policy

## Meals

The domestic per diem is $65 per day. Alcohol is not reimbursed.

## Submission

Expense reports must be submitted within 30 days after the trip ends.
"""
_HREF = re.compile(r'<a\s[^>]*href="([^"]+)"')
# Leaving the console, changing state or the admin site (Django's own pages, with their own permissions).
_NOT_WALKED = ("/logout/", "/admin/", "/static/", "/api/", "/account/language/", "/login/")
PAGES_PER_ROLE = 70


def _links(page: str) -> list[str]:
    found = []
    for href in _HREF.findall(page):
        url, _ = urldefrag(unescape(href))
        parsed = urlparse(url)
        if parsed.scheme or parsed.netloc or not parsed.path.startswith("/"):
            continue
        if parsed.path.startswith(_NOT_WALKED) or "export" in parsed.query or "format=" in parsed.query:
            continue
        found.append(url)
    return found


def _walk(client, user) -> dict[str, tuple[int, str]]:
    """Every page reachable from the dashboard by links (breadth first, at most PAGES_PER_ROLE): its status and
    the page that linked to it."""
    client.force_login(user)
    seen: dict[str, tuple[int, str]] = {}
    queue = deque([("/", "")])
    while queue and len(seen) < PAGES_PER_ROLE:
        url, linked_from = queue.popleft()
        if url in seen:
            continue
        response = client.get(url)
        seen[url] = (response.status_code, linked_from)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            queue.extend((link, url) for link in _links(response.content.decode()) if link not in seen)
    return seen


@pytest.fixture
def console_with_work(publish, make_answer, reviewer, curator, approver):
    """A document, an answer resting on it (approved by the reviewer, with a claim trace), one waiting, and a
    source marked wrong: every kind of page a link may lead to."""
    from kb.models import Chunk

    version = publish(POLICY, key="expense-policy", title="Expense policy")
    chunk = Chunk.objects.filter(version=version).order_by("ordinal").last()
    sent = make_answer(chunk=chunk, claims=[("Reports are due in 30 days.", "supported", 0.9)], risk="low")
    Answer.objects.filter(pk=sent.pk).update(status="approved", decided_by=reviewer, released_text=sent.text)
    waiting = make_answer(chunk=chunk, claims=[("Reports are due in 45 days.", "contradicted", 0.2)], risk="high")
    # Waiting past its SLA: the dashboard offers the overdue items to those who may review them.
    Answer.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(days=3))
    claim = waiting.claims.get()
    SourceCorrection.objects.create(answer=waiting, claim=claim, wrong_version=version, other_version=version,
                                    wrong_quote="30 days", other_quote="45 days", reviewer=reviewer)
    return version


@pytest.mark.parametrize("role", ["curator", "approver", "reviewer", "viewer", "admin"])
def test_every_link_a_role_is_shown_opens_for_it(client, make_user, console_with_work, role):
    user = make_user(f"walker-{role}", role, clearance="internal")

    statuses = _walk(client, user)

    assert len(statuses) > 3, statuses  # the walk went beyond the dashboard
    dead_ends = {url: (status, linked_from) for url, (status, linked_from) in statuses.items()
                 if status in (403, 404, 405) or status >= 500}
    assert dead_ends == {}
