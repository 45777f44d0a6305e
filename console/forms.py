from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from console.models import SecurityLevel, User
from console.roles import ROLE_LABELS
from console.selectors import audit_filter_choices


class AuditFilterForm(forms.Form):
    actor = forms.CharField(required=False, label=_("Actor"))
    verb = forms.ChoiceField(required=False, label=_("Action"))
    object_type = forms.ChoiceField(required=False, label=_("Object type"))
    object_id = forms.CharField(required=False, label=_("Object id"))
    since = forms.DateField(required=False, label=_("Since"), widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, label=_("Until"), widget=forms.DateInput(attrs={"type": "date"}))
    include_routine = forms.BooleanField(required=False, label=_("Show lease and no-op events"))

    def __init__(self, *args, viewer: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only actions and object types that occur in rows this viewer may read: a choice never matches nothing.
        verbs, object_types = audit_filter_choices(viewer=viewer)
        groups = sorted({verb.split(".")[0] for verb in verbs})
        self.fields["verb"].choices = [
            ("", _("Any action")),
            *[(f"{group}.", _("any %(group)s action") % {"group": group}) for group in groups],
            *[(verb, verb) for verb in verbs],
        ]
        self.fields["object_type"].choices = [
            ("", _("Any type")), *[(value, value.split(".")[-1].replace("_", " ")) for value in object_types],
        ]


class LanguageForm(forms.ModelForm):
    # Each language is named in itself (settings.LANGUAGES), so a person who cannot read the current one finds theirs.
    language = forms.ChoiceField(
        required=False, label=_("Language"),
        choices=[("", _("Same as the browser")), *settings.LANGUAGES],
        widget=forms.RadioSelect,
    )

    class Meta:
        model = User
        fields = ["language"]


class PersonalTokenForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"),
                           help_text=_("What will use the token: a bot, a ticketing system, a script."))


class UserRolesForm(forms.Form):
    roles = forms.MultipleChoiceField(required=False, label=_("Roles"), widget=forms.CheckboxSelectMultiple,
                                      choices=list(ROLE_LABELS.items()))


class UserClearanceForm(forms.Form):
    clearance = forms.ChoiceField(label=_("Clearance"), choices=SecurityLevel.choices)

    def __init__(self, *args, actor: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Offered only up to the admin's own clearance: they cannot give more than they hold.
        self.fields["clearance"].choices = [(value, label) for value, label in SecurityLevel.choices
                                            if SecurityLevel.rank(value) <= SecurityLevel.rank(actor.clearance)]
