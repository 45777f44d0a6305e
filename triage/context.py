from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from console import roles
from triage.selectors import notifications_unread_count


def triage_context(request: HttpRequest) -> dict[str, object]:
    """The nav's unread-notification count: counted only when a page with the nav renders, only for those who get
    notifications (reviewers; owners and approvers of documents, reminded of expiries)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*roles.NOTIFIED):
        return {"notifications_unread": 0}
    return {"notifications_unread": SimpleLazyObject(lambda: notifications_unread_count(user=user))}
