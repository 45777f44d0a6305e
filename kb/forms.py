from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils import timezone

from checking.languages import LANGUAGE_CHOICES
from console.models import SecurityLevel, User
from kb.models import DocumentVersion, VersionStatus

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class VersionUploadForm(forms.Form):
    file = forms.FileField(help_text="A Markdown file (.md), UTF-8, up to the upload limit.")
    effective_from = forms.DateTimeField(required=False, widget=DATETIME_WIDGET, help_text="Empty: from approval on.")
    expires_at = forms.DateTimeField(required=False, widget=DATETIME_WIDGET, help_text="Empty: never expires.")
    note = forms.CharField(required=False, max_length=500, label="What changed")
    submit_for_approval = forms.BooleanField(required=False, initial=True)
    language = forms.ChoiceField(choices=[("", "Detect from the text"), *LANGUAGE_CHOICES], required=False,
                                 help_text="What the checker reads it as; detected unless you choose.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.KB_MAX_UPLOAD_BYTES:
            limit_mb = settings.KB_MAX_UPLOAD_BYTES / (1024 * 1024)
            raise forms.ValidationError(f"“{upload.name}” is {upload.size / (1024 * 1024):.1f} MB; "
                                        f"the limit is {limit_mb:.1f} MB.")
        return upload

    def ask_for_file_again(self, files) -> None:
        """A browser never refills a file input, so a form shown again with errors says to choose the file again."""
        upload = files.get("file")
        if upload is not None and self.errors and "file" not in self.errors:
            self.add_error("file", f"Choose “{upload.name}” again: browsers drop the chosen file when a form "
                                   "is shown again.")


def version_upload_initial(*, previous: DocumentVersion | None) -> dict:
    """A new version starts from the one before it: its expiry (if still ahead) and its note, ready to edit.
    Without this an expiry not typed again silently became "never expires"."""
    if previous is None:
        return {}
    initial = {"note": previous.note}
    if previous.expires_at and previous.expires_at > timezone.now():
        initial["expires_at"] = timezone.localtime(previous.expires_at)
    if previous.effective_from > timezone.now():
        initial["effective_from"] = timezone.localtime(previous.effective_from)
    return initial


class DocumentCreateForm(VersionUploadForm):
    title = forms.CharField(max_length=200)
    key = forms.SlugField(
        max_length=100,
        help_text="Stable identifier, suggested from the title, e.g. travel-policy. Cannot change later.",
        widget=forms.TextInput(attrs={"data-key-from-title": "id_title", "autocomplete": "off"}),
    )
    security_level = forms.ChoiceField(choices=SecurityLevel.choices, initial=SecurityLevel.INTERNAL)
    owner = forms.ModelChoiceField(queryset=User.objects.filter(is_active=True).order_by("username"))

    field_order = ["title", "key", "owner", "security_level", "file", "effective_from", "expires_at", "note",
                   "submit_for_approval"]

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only levels the uploader may open: a document above them would vanish from their own view.
        self.fields["security_level"].choices = [
            (value, label) for value, label in SecurityLevel.choices if value in SecurityLevel.up_to(user.clearance)
        ]
        self.fields["security_level"].help_text = f"Up to your clearance ({user.get_clearance_display()})."


class DecisionForm(forms.Form):
    reason = forms.CharField(required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class DocumentFilterForm(forms.Form):
    q = forms.CharField(required=False, label="Search")
    status = forms.ChoiceField(required=False, choices=[("", "Any status"), *VersionStatus.choices])
    owner = forms.CharField(required=False)
    security_level = forms.ChoiceField(required=False, choices=[("", "Any level"), *SecurityLevel.choices])
    expiring = forms.BooleanField(required=False, label="Expiring soon")
