from django import forms


class AuditFilterForm(forms.Form):
    actor = forms.CharField(required=False)
    verb = forms.CharField(required=False, help_text="prefix, e.g. version. or answer.approve")
    object_type = forms.CharField(required=False)
    object_id = forms.CharField(required=False)
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
