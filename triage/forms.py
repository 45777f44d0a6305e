from django import forms
from django.utils.translation import gettext_lazy


class QueueViewForm(forms.Form):
    name = forms.CharField(max_length=80, label=gettext_lazy("View name"))
    shared = forms.BooleanField(required=False, label=gettext_lazy("Share with every reviewer"))
    query = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)


class CommentForm(forms.Form):
    text = forms.CharField(max_length=4000, label=gettext_lazy("Comment"),
                           widget=forms.Textarea(attrs={"rows": 3, "data-mention-box": ""}))


class GuidelineForm(forms.Form):
    text = forms.CharField(max_length=20_000, label=gettext_lazy("Guidelines (Markdown)"),
                           widget=forms.Textarea(attrs={"rows": 14}))
