from pathlib import PurePath

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from console.models import SecurityLevel, User
from console.input_text import text_problem


class AskForm(forms.Form):
    question = forms.CharField(max_length=2000, strip=True, label=gettext_lazy("Question"))
    k = forms.IntegerField(min_value=1, max_value=20, initial=5, required=False, label=gettext_lazy("Passages"))

    def clean_question(self) -> str:
        question = self.cleaned_data["question"]
        problem = text_problem(question)
        if problem:
            raise forms.ValidationError(_("The question %(problem)s.") % {"problem": problem})
        return question


QUESTION_FILE_EXTENSIONS = (".jsonl", ".ndjson")


class QuestionSetForm(forms.Form):
    """A question set upload: the file's text is judged here (type, size, encoding, characters); its lines by
    ask.question_evaluation.questions_parse when saved."""

    name = forms.CharField(max_length=100, strip=True, label=gettext_lazy("Name"))
    file = forms.FileField(label=gettext_lazy("File"), help_text=gettext_lazy(
        "JSON lines (.jsonl), UTF-8, one question per line, up to the upload limit."))
    clearance = forms.ChoiceField(choices=SecurityLevel.choices, label=gettext_lazy("Clearance"),
                                  help_text=gettext_lazy(
                                      "Retrieval runs at this clearance; only people cleared for it see the runs."))

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clearance"].choices = [(value, label) for value, label in SecurityLevel.choices
                                            if value in SecurityLevel.up_to(user.clearance)]
        self.fields["clearance"].initial = user.clearance

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        problem = text_problem(name)
        if problem:
            raise forms.ValidationError(_("The name %(problem)s.") % {"problem": problem})
        return name

    def clean_file(self) -> str:
        """The file's text (not the upload object)."""
        upload = self.cleaned_data["file"]
        name = PurePath(upload.name).name
        if PurePath(name).suffix.lower() not in QUESTION_FILE_EXTENSIONS:
            raise forms.ValidationError(_("“%(name)s” is not a JSON-lines file: upload a .jsonl file.")
                                        % {"name": name})
        if upload.size > settings.KB_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("“%(name)s” is %(size)s MB; the limit is %(limit)s MB.") % {
                "name": name, "size": f"{upload.size / 2**20:.1f}",
                "limit": f"{settings.KB_MAX_UPLOAD_BYTES / 2**20:.1f}"})
        raw = upload.read()
        if b"\x00" in raw:
            raise forms.ValidationError(_("“%(name)s” looks like a binary file, not JSON lines.") % {"name": name})
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(
                _("“%(name)s” is not valid UTF-8 (byte 0x%(byte)s at position %(position)s). Save it as UTF-8 and "
                  "upload it again.") % {"name": name, "byte": f"{raw[exc.start]:02x}", "position": exc.start}
            ) from None
        problem = text_problem(text)
        if problem:
            raise forms.ValidationError(_("“%(name)s” %(problem)s.") % {"name": name, "problem": problem})
        self.filename = name
        return text
