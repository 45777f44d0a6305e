from django import forms
from django.conf import settings

from console.models import SecurityLevel
from kb.models import Document
from checking.claims import split_claims
from review.models import ApiClient, Decision, Risk


class QueueFilterForm(forms.Form):
    STATUS_CHOICES = [("pending", "Waiting for review"), ("escalated", "Escalated"), ("approved", "Approved"),
                      ("rejected", "Rejected"), ("released", "Released automatically"), ("all", "All")]
    SORT_CHOICES = [("risk", "Highest risk, likeliest wrong first"), ("oldest", "Oldest first"),
                    ("newest", "Newest first"), ("score", "Lowest score first")]

    q = forms.CharField(required=False, max_length=200, label="Question contains",
                        widget=forms.TextInput(attrs={"type": "search", "placeholder": "Search questions"}))
    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False, initial="pending")
    risk = forms.ChoiceField(choices=[("", "Any risk"), *Risk.choices], required=False)
    client = forms.ModelChoiceField(queryset=ApiClient.objects.order_by("name"), required=False,
                                    empty_label="Any client")
    document = forms.ChoiceField(required=False, label="Source document")
    received_from = forms.DateField(required=False, label="Received from",
                                    widget=forms.DateInput(attrs={"type": "date"}))
    received_to = forms.DateField(required=False, label="to", widget=forms.DateInput(attrs={"type": "date"}))
    overdue = forms.BooleanField(required=False)
    mine = forms.BooleanField(required=False, label="Mine")
    sort = forms.ChoiceField(choices=SORT_CHOICES, required=False, initial="risk")

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only documents the reviewer may read are offered: a title can say too much.
        readable = Document.objects.filter(security_level__in=SecurityLevel.up_to(user.clearance)).order_by("title")
        self.fields["document"].choices = [("", "Any document"), *readable.values_list("key", "title")]


class EditedTextForm(forms.Form):
    edited_text = forms.CharField(required=False, max_length=50_000, widget=forms.Textarea(attrs={"rows": 6}))

    def clean_edited_text(self) -> str:
        """The edit is re-checked on a worker while the reviewer waits: the API's claim cap applies."""
        text = self.cleaned_data["edited_text"]
        claims = len(split_claims(text))
        if claims > settings.API_MAX_CLAIMS:
            raise forms.ValidationError(f"The edited answer has {claims} claims; the limit is "
                                        f"{settings.API_MAX_CLAIMS}. Shorten it.")
        return text


class DecisionForm(EditedTextForm):
    action = forms.ChoiceField(choices=Decision.Action.choices)
    reason = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    field_order = ["action", "reason", "edited_text"]

