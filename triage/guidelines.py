"""Guidelines per saved view: Markdown telling reviewers how to judge what the view lists, versioned (each edit a
new version with its author and time), shown beside the queue when the view is open and beside an answer when the
reviewer works within the view.

Who may edit: the view's owner, and the leads — approvers and admins — on a view shared with everyone. A reviewer
cannot rewrite the rules of a colleague's shared view; a lead can, since guidelines are how leads steer review.
Everyone who may see the view reads them."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from console import roles
from console.audit import audit_record
from console.input_text import text_problem
from kb.rendering import render_markdown
from triage.models import QueueView, ViewGuideline

GUIDELINE_MAX_CHARS = 20_000
LEADS = (roles.APPROVER, roles.ADMIN)
WORKING_VIEW = "triage_working_view"  # session key: the saved view the reviewer last opened the queue in


class GuidelineInvalid(ValueError):
    """Guidelines that cannot be saved: the message says why."""


def guideline_may_edit(*, user, view: QueueView) -> bool:
    return view.owner_id == user.pk or (view.shared and roles.user_has_role(user, *LEADS))


def guideline_current(*, view: QueueView) -> ViewGuideline | None:
    return view.guidelines.select_related("author").first()


def guideline_history(*, view: QueueView) -> list[ViewGuideline]:
    return list(view.guidelines.select_related("author"))


def guideline_html(guideline: ViewGuideline) -> str:
    """The guidelines rendered as the KB renders documents (markdown-it, raw HTML shown as text, nh3-sanitised)."""
    return render_markdown(guideline.text)


@transaction.atomic
def guideline_save(*, view: QueueView, author, text: str) -> ViewGuideline:
    """A new version of the view's guidelines; the same text as the one in force adds nothing."""
    if not guideline_may_edit(user=author, view=view):
        raise GuidelineInvalid(_("Only the view's owner, or an approver or admin on a shared view, can edit its "
                                 "guidelines."))
    text = text.strip().replace("\r\n", "\n")
    if not text:
        raise GuidelineInvalid(_("The guidelines are empty."))
    if len(text) > GUIDELINE_MAX_CHARS:
        raise GuidelineInvalid(_("Guidelines are at most %(limit)s characters.") % {"limit": GUIDELINE_MAX_CHARS})
    if problem := text_problem(text):
        raise GuidelineInvalid(_("The guidelines %(problem)s.") % {"problem": problem})
    QueueView.objects.select_for_update().filter(pk=view.pk).first()  # one new version at a time per view
    current = guideline_current(view=view)
    if current is not None and current.text == text:
        return current
    number = (view.guidelines.aggregate(last=Max("number"))["last"] or 0) + 1
    guideline = ViewGuideline.objects.create(view=view, number=number, text=text, author=author)
    audit_record(verb="queue_view.guidelines", obj=view, actor=author,
                 before={"version": current.number if current else None}, after={"version": number})
    return guideline
