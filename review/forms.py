from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import pgettext_lazy

from console.models import SecurityLevel
from kb.models import Document
from checking.claims import split_claims
from review.models import ApiClient, Decision, Risk


class QueueFilterForm(forms.Form):
    STATUS_CHOICES = [("pending", gettext_lazy("Waiting for review")), ("escalated", gettext_lazy("Escalated")),
                      ("approved", gettext_lazy("Approved")), ("rejected", gettext_lazy("Rejected")),
                      ("released", gettext_lazy("Released automatically")), ("all", gettext_lazy("All"))]
    SORT_CHOICES = [("risk", gettext_lazy("Highest risk, likeliest wrong first")),
                    ("likely", gettext_lazy("Likeliest wrong first")),
                    ("oldest", gettext_lazy("Oldest first")),
                    ("newest", gettext_lazy("Newest first")), ("score", gettext_lazy("Lowest score first")),
                    ("client", gettext_lazy("By client")), ("assignee", gettext_lazy("By assignee"))]
    ASSIGNEE_CHOICES = [("", gettext_lazy("Anyone")), ("me", gettext_lazy("Mine")),
                        ("none", gettext_lazy("Unassigned"))]
    # The queue's columns, in their order; the question is always shown.
    COLUMN_CHOICES = [("risk", gettext_lazy("Risk")), ("age", gettext_lazy("Age")),
                      ("reason", gettext_lazy("Reason")), ("client", gettext_lazy("Client")),
                      ("probability", gettext_lazy("Likely wrong")), ("flagged", gettext_lazy("Flagged")),
                      ("status", gettext_lazy("Status")), ("assignee", gettext_lazy("Assignee"))]

    q = forms.CharField(required=False, max_length=200, label=gettext_lazy("Search questions, answers and claims"),
                        widget=forms.TextInput(attrs={
                            "type": "search", "placeholder": gettext_lazy("Words of a question, answer or claim")}))
    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False, initial="pending", label=gettext_lazy("Status"))
    risk = forms.ChoiceField(choices=[("", gettext_lazy("Any risk")), *Risk.choices], required=False,
                             label=gettext_lazy("Risk"))
    client = forms.ModelChoiceField(queryset=ApiClient.objects.order_by("name"), required=False,
                                    empty_label=gettext_lazy("Any client"), label=gettext_lazy("Client"))
    document = forms.ChoiceField(required=False, label=gettext_lazy("Source document"))
    received_from = forms.DateField(required=False, label=gettext_lazy("Received from"),
                                    widget=forms.DateInput(attrs={"type": "date"}))
    received_to = forms.DateField(required=False, label=pgettext_lazy("date range", "to"),
                                  widget=forms.DateInput(attrs={"type": "date"}))
    overdue = forms.BooleanField(required=False, label=gettext_lazy("Overdue"))
    assignee = forms.ChoiceField(choices=ASSIGNEE_CHOICES, required=False, label=gettext_lazy("Assigned"))
    sort = forms.ChoiceField(choices=SORT_CHOICES, required=False, initial="risk", label=gettext_lazy("Sort"))
    cols = forms.MultipleChoiceField(choices=COLUMN_CHOICES, required=False, label=gettext_lazy("Columns"),
                                     widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only documents the reviewer may read are offered: a title can say too much.
        readable = Document.objects.filter(security_level__in=SecurityLevel.up_to(user.clearance)).order_by("title")
        self.fields["document"].choices = [("", _("Any document")), *readable.values_list("key", "title")]

    def selector_filters(self) -> dict:
        """What review.selectors.review_queue takes: the filters and sort that are set (columns are the page's)."""
        if not self.is_valid():
            return {}
        return {key: value for key, value in self.cleaned_data.items() if value and key != "cols"}

    def columns(self) -> list[str]:
        """The columns to show: those ticked, or every one."""
        ticked = self.cleaned_data.get("cols") if self.is_valid() else None
        return ticked or [key for key, _label in self.COLUMN_CHOICES]


# The parts of a queue URL a saved view keeps: its filters, sort and columns (not the page, not the view's id).
QUEUE_QUERY_KEYS = frozenset(QueueFilterForm.base_fields)


def queue_query_clean(query: str) -> str:
    """A queue query string reduced to what a saved view keeps, re-encoded."""
    parsed = QueryDict(query)
    kept = QueryDict(mutable=True)
    for key in parsed:
        if key in QUEUE_QUERY_KEYS:
            kept.setlist(key, [value for value in parsed.getlist(key) if value][:20])
    return kept.urlencode()


class EditedTextForm(forms.Form):
    edited_text = forms.CharField(required=False, max_length=50_000, widget=forms.Textarea(attrs={"rows": 6}),
                                  label=gettext_lazy("Edited answer"))

    def clean_edited_text(self) -> str:
        """The edit is re-checked on a worker while the reviewer waits: the API's claim cap applies."""
        text = self.cleaned_data["edited_text"]
        claims = len(split_claims(text))
        if claims > settings.API_MAX_CLAIMS:
            raise forms.ValidationError(
                _("The edited answer has %(claims)s claims; the limit is %(limit)s. Shorten it.")
                % {"claims": claims, "limit": settings.API_MAX_CLAIMS})
        return text


class DecisionForm(EditedTextForm):
    action = forms.ChoiceField(choices=Decision.Action.choices, label=gettext_lazy("Action"))
    # Ctrl/Cmd+Enter in the reason rejects (static/js/console.js): a reason is what a reject needs, and no key in a
    # text box may send an answer.
    reason = forms.CharField(required=False, max_length=2000, label=gettext_lazy("Reason"), widget=forms.Textarea(
        attrs={"rows": 2, "data-submits": "[data-shortcut='reject-answer']"}))
    field_order = ["action", "reason", "edited_text"]



class BulkRejectForm(forms.Form):
    """The queue's bulk reject: one reason for every ticked answer (a form, so more about the rejection can join
    the reason)."""

    reason = forms.CharField(max_length=2000, label=gettext_lazy("Reason for rejecting the ticked answers"),
                             widget=forms.Textarea(attrs={"rows": 2}))
