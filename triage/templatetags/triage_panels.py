"""Triage's panels on review's pages (the queue's saved views, an answer's assignment and comments, the comments
beside a claim's trace). review's views know none of them; its templates load these tags."""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from review.forms import queue_query_clean
from review.models import Answer
from triage import drafts, guidelines, selectors
from triage.forms import CommentForm, QueueViewForm
from triage.models import QueueView

register = template.Library()


@dataclass(frozen=True)
class QueueViews:
    saved: list[QueueView]  # the reviewer's own views and those shared with them
    current: QueueView | None  # the view the queue was opened from (?view=)
    changed: bool  # the queue's query is no longer the current view's
    form: QueueViewForm  # "save this view as"


@register.simple_tag(takes_context=True)
def queue_views(context) -> QueueViews:
    """The queue page's saved views: `{% queue_views as views %}`."""
    request = context["request"]
    saved = selectors.queue_views_for(user=request.user)
    view_id = request.GET.get("view", "")
    current = next((view for view in saved if str(view.pk) == view_id), None)
    query = queue_query_clean(context["query"])
    form = context.get("view_form") or QueueViewForm(initial={
        # Saving again under the same name updates one's own view.
        "query": query, "name": current.name if current and current.owner_id == request.user.pk else ""})
    return QueueViews(saved=saved, current=current, changed=current is not None and query != current.query,
                      form=form)


@register.inclusion_tag("triage/_saved_views.html", takes_context=True)
def saved_views_panel(context, views: QueueViews) -> dict:
    """The list of saved views, and the form that saves the queue as it is now."""
    return {**_page(context), "saved_views": views.saved, "current_view": views.current, "view_form": views.form}


def _page(context) -> dict:
    """What a form in a panel needs of the page around it."""
    return {"request": context["request"], "user": context["request"].user, "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("triage/_answer_teamwork.html", takes_context=True)
def answer_teamwork(context, answer: Answer) -> dict:
    """Who the answer is assigned to, to whom it may be assigned (and who may be mentioned), and the comments."""
    return {**_page(context), "answer": answer,
            **selectors.answer_teamwork(answer=answer, comment_form=context.get("comment_form") or CommentForm())}


@register.inclusion_tag("triage/_queue_assignee.html", takes_context=True)
def queue_assignee(context, answer: Answer) -> dict:
    """The queue row's assignee cell: who it is assigned to or who holds it, or "Assign to me"."""
    return {**_page(context), "answer": answer, "now": context["now"]}


@register.inclusion_tag("triage/_comments_link.html")
def answer_comments_link(answer: Answer) -> dict:
    """The answer page's toolbar link down to the comments, saying how many there are."""
    return {"comment_count": answer.comments.count()}


@register.inclusion_tag("triage/_trace_comments.html")
def trace_comments(answer: Answer) -> dict:
    return {"comments": selectors.comments_for(answer=answer)}


@register.simple_tag(takes_context=True)
def queue_reviewers(context) -> list:
    """Whom the queue's bulk assign offers: `{% queue_reviewers as reviewers %}`."""
    return list(selectors.reviewers_for_queue(viewer=context["request"].user))


@register.inclusion_tag("triage/_view_guidelines.html", takes_context=True)
def view_guidelines_panel(context, view: QueueView | None) -> dict:
    """The open view's guidelines beside the queue (or, for who may write them, a link to do so)."""
    current = guidelines.guideline_current(view=view) if view is not None else None
    user = context["request"].user
    return {"view": view, "guideline": current, "html": guidelines.guideline_html(current) if current else "",
            "may_edit": view is not None and guidelines.guideline_may_edit(user=user, view=view), "on_answer": False}


@register.inclusion_tag("triage/_view_guidelines.html", takes_context=True)
def answer_guidelines_panel(context) -> dict:
    """Beside an answer: the guidelines of the saved view the reviewer works in (?view=ID on the answer's link, or
    the view they last opened the queue in); nothing when that view has none."""
    request = context["request"]
    asked = request.GET.get("view", "")
    view_id = int(asked) if asked.isdigit() else request.session.get(guidelines.WORKING_VIEW)
    view = selectors.get_queue_view_for_user(user=request.user, view_id=view_id) if view_id else None
    current = guidelines.guideline_current(view=view) if view is not None else None
    if current is None:
        return {"view": None}
    return {"view": view, "guideline": current, "html": guidelines.guideline_html(current), "may_edit": False,
            "on_answer": True}


@register.inclusion_tag("triage/_answer_drafts.html", takes_context=True)
def answer_drafts(context, answer: Answer) -> dict:
    """The reviewer's unsent text on this answer, for the page to put back in its boxes (static/js/console.js)."""
    request = context["request"]
    if answer.status != "pending_review":
        return {"answer": None}
    return {"answer": answer, "drafts": drafts.drafts_for(answer=answer, author=request.user)}
