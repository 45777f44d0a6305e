from __future__ import annotations

from django import forms
from django.conf import settings
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from checking.languages import LANGUAGE_CHOICES
from console.models import SecurityLevel, User
from kb.models import SYNONYM_MAX_CHARS, DocumentVersion, VersionStatus
from kb.vocabulary import synonym_pair_problems

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class VersionUploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("File"),
                           help_text=gettext_lazy("A Markdown file (.md), UTF-8, up to the upload limit."))
    effective_from = forms.DateTimeField(required=False, widget=DATETIME_WIDGET, label=gettext_lazy("Effective from"),
                                         help_text=gettext_lazy("Empty: from approval on."))
    expires_at = forms.DateTimeField(required=False, widget=DATETIME_WIDGET, label=gettext_lazy("Expires at"),
                                     help_text=gettext_lazy("Empty: never expires."))
    note = forms.CharField(required=False, max_length=500, label=gettext_lazy("What changed"))
    submit_for_approval = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Submit for approval now"))
    language = forms.ChoiceField(choices=[("", gettext_lazy("Detect from the text")), *LANGUAGE_CHOICES], required=False,
                                 label=gettext_lazy("Language"),
                                 help_text=gettext_lazy("What the checker reads it as; detected unless you choose."))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.KB_MAX_UPLOAD_BYTES:
            limit_mb = settings.KB_MAX_UPLOAD_BYTES / (1024 * 1024)
            raise forms.ValidationError(_("“%(name)s” is %(size)s MB; the limit is %(limit)s MB.") % {
                "name": upload.name, "size": f"{upload.size / (1024 * 1024):.1f}", "limit": f"{limit_mb:.1f}"})
        return upload

    def ask_for_file_again(self, files) -> None:
        """A browser never refills a file input, so a form shown again with errors says to choose the file again."""
        upload = files.get("file")
        if upload is not None and self.errors and "file" not in self.errors:
            self.add_error("file", _("Choose “%(name)s” again: browsers drop the chosen file when a form "
                                     "is shown again.") % {"name": upload.name})


class ExtensionForm(forms.Form):
    """The owner's re-verification: still correct until this date."""

    expires_at = forms.DateTimeField(widget=DATETIME_WIDGET, label=gettext_lazy("Still correct until"))
    note = forms.CharField(required=False, max_length=500, label=gettext_lazy("Note for the approver"))


class ReminderDaysForm(forms.Form):
    reminder_days = forms.IntegerField(required=False, min_value=0, max_value=366,
                                       label=gettext_lazy("Remind this many days before expiry"),
                                       help_text=gettext_lazy("Empty: the console's default."))

    def __init__(self, *args, default_days: int | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if default_days is not None:
            self.fields["reminder_days"].widget.attrs["placeholder"] = str(default_days)


def version_upload_initial(*, previous: DocumentVersion | None) -> dict:
    """A new version starts from the one before it: its dates (the expiry if still ahead). Without this an expiry
    not typed again silently became "never expires". Not its note: a note says what changed in *that* version, and a
    copied one became the new version's untouched (the page shows it beside the empty field instead)."""
    if previous is None:
        return {}
    initial = {}
    if previous.expires_at and previous.expires_at > timezone.now():
        initial["expires_at"] = timezone.localtime(previous.expires_at)
    if previous.effective_from > timezone.now():
        initial["effective_from"] = timezone.localtime(previous.effective_from)
    return initial


class DocumentCreateForm(VersionUploadForm):
    title = forms.CharField(max_length=200, label=gettext_lazy("Title"))
    key = forms.SlugField(
        max_length=100,
        label=gettext_lazy("Key"),
        help_text=gettext_lazy("Stable identifier, suggested from the title, e.g. travel-policy. Cannot change later."),
        widget=forms.TextInput(attrs={"data-key-from-title": "id_title", "autocomplete": "off",
                                         "data-key-suggestion-url": reverse_lazy("kb:document_key_suggestion")}),
    )
    security_level = forms.ChoiceField(choices=SecurityLevel.choices, initial=SecurityLevel.INTERNAL,
                                       label=gettext_lazy("Security level"))
    owner = forms.ModelChoiceField(queryset=User.objects.filter(is_active=True).order_by("username"),
                                   label=gettext_lazy("Owner"))

    field_order = ["title", "key", "owner", "security_level", "file", "effective_from", "expires_at", "note",
                   "submit_for_approval"]

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only levels the uploader may open: a document above them would vanish from their own view.
        self.fields["security_level"].choices = [
            (value, label) for value, label in SecurityLevel.choices if value in SecurityLevel.up_to(user.clearance)
        ]
        self.fields["security_level"].help_text = _("Up to your clearance (%(clearance)s).") % {
            "clearance": user.get_clearance_display()}


class DecisionForm(forms.Form):
    reason = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}),
                             label=gettext_lazy("Note"))


class DocumentFilterForm(forms.Form):
    q = forms.CharField(required=False, label=gettext_lazy("Search"))
    status = forms.ChoiceField(required=False, choices=[("", gettext_lazy("Any status")), *VersionStatus.choices],
                               label=gettext_lazy("Status"))
    owner = forms.CharField(required=False, label=gettext_lazy("Owner"))
    security_level = forms.ChoiceField(required=False, choices=[("", gettext_lazy("Any level")), *SecurityLevel.choices],
                                       label=gettext_lazy("Security level"))
    expiring = forms.BooleanField(required=False, label=gettext_lazy("Expiring soon"))
    mine = forms.BooleanField(required=False, label=gettext_lazy("Mine"))


class SynonymForm(forms.Form):
    """A pair a curator adds to the vocabulary; the vocabulary says what is wrong with it, field by field."""

    language = forms.ChoiceField(choices=LANGUAGE_CHOICES, label=gettext_lazy("Language"))
    words = forms.CharField(max_length=SYNONYM_MAX_CHARS, label=gettext_lazy("Words"),
                            help_text=gettext_lazy("A word or a short phrase, e.g. jobless rate; in Chinese, a "
                                                   "phrase's words apart: 乘坐 出租车."))
    other_words = forms.CharField(max_length=SYNONYM_MAX_CHARS, label=gettext_lazy("Mean the same as"))

    def clean(self):
        data = super().clean()
        if {"language", "words", "other_words"} <= data.keys():
            for field, problem in synonym_pair_problems(language=data["language"], words=data["words"],
                                                        other_words=data["other_words"]).items():
                self.add_error(field, problem)
        return data


class SourceForm(forms.Form):
    """A Git source as a curator adds it."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    repository = forms.CharField(max_length=500, label=gettext_lazy("Repository"),
                                 help_text=gettext_lazy("A path on the server, https://… or ssh://…"))
    branch = forms.CharField(max_length=200, initial="main", label=gettext_lazy("Branch"))
    folder = forms.CharField(max_length=300, required=False, label=gettext_lazy("Folder"),
                             help_text=gettext_lazy("Empty: the whole repository."))
    token = forms.CharField(max_length=500, required=False, widget=forms.PasswordInput, label=gettext_lazy("Token"),
                            help_text=gettext_lazy("For https repositories that need one; never shown again."))
    default_owner = forms.ModelChoiceField(queryset=User.objects.none(), label=gettext_lazy("Owner of new documents"),
                                           help_text=gettext_lazy("Unless a file's front matter names its owner."))
    security_level = forms.ChoiceField(choices=SecurityLevel.choices, initial=SecurityLevel.INTERNAL,
                                       label=gettext_lazy("Security level of new documents"))
    language = forms.ChoiceField(choices=[("", gettext_lazy("Detect from the text")), *LANGUAGE_CHOICES],
                                 required=False, label=gettext_lazy("Language"))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["default_owner"].queryset = User.objects.filter(is_active=True).order_by("username")
