from django import forms
from django.conf import settings

from review.checking.claims import split_claims
from review.models import Decision, Risk


class QueueFilterForm(forms.Form):
    STATUS_CHOICES = [("pending", "Waiting for review"), ("escalated", "Escalated"), ("approved", "Approved"),
                      ("rejected", "Rejected"), ("released", "Released automatically"), ("all", "All")]
    SORT_CHOICES = [("risk", "Highest risk first"), ("oldest", "Oldest first"), ("newest", "Newest first"),
                    ("score", "Lowest score first")]

    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False, initial="pending")
    risk = forms.ChoiceField(choices=[("", "Any risk"), *Risk.choices], required=False)
    overdue = forms.BooleanField(required=False)
    mine = forms.BooleanField(required=False, label="Mine")
    sort = forms.ChoiceField(choices=SORT_CHOICES, required=False, initial="risk")


class DecisionForm(forms.Form):
    action = forms.ChoiceField(choices=Decision.Action.choices)
    reason = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))
    edited_text = forms.CharField(required=False, max_length=50_000, widget=forms.Textarea(attrs={"rows": 6}))

    def clean_edited_text(self) -> str:
        """The edit is re-checked on a worker while the reviewer waits: the API's claim cap applies."""
        text = self.cleaned_data["edited_text"]
        claims = len(split_claims(text))
        if claims > settings.API_MAX_CLAIMS:
            raise forms.ValidationError(f"The edited answer has {claims} claims; the limit is "
                                        f"{settings.API_MAX_CLAIMS}. Shorten it.")
        return text
