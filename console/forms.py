from django import forms

from console.models import User
from console.selectors import audit_filter_choices


class AuditFilterForm(forms.Form):
    actor = forms.CharField(required=False)
    verb = forms.ChoiceField(required=False, label="Action")
    object_type = forms.ChoiceField(required=False, label="Object type")
    object_id = forms.CharField(required=False, label="Object id")
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    include_routine = forms.BooleanField(required=False, label="Show lease and no-op events")

    def __init__(self, *args, viewer: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only actions and object types that occur in rows this viewer may read: a choice never matches nothing.
        verbs, object_types = audit_filter_choices(viewer=viewer)
        groups = sorted({verb.split(".")[0] for verb in verbs})
        self.fields["verb"].choices = [
            ("", "Any action"),
            *[(f"{group}.", f"any {group} action") for group in groups],
            *[(verb, verb) for verb in verbs],
        ]
        self.fields["object_type"].choices = [
            ("", "Any type"), *[(value, value.split(".")[-1].replace("_", " ")) for value in object_types],
        ]
