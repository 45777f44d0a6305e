from pathlib import PurePath

from django import forms
from django.conf import settings

from console.models import SecurityLevel, User
from console.text import text_problem


class AskForm(forms.Form):
    question = forms.CharField(max_length=2000, strip=True)
    k = forms.IntegerField(min_value=1, max_value=20, initial=5, required=False)

    def clean_question(self) -> str:
        question = self.cleaned_data["question"]
        problem = text_problem(question)
        if problem:
            raise forms.ValidationError(f"The question {problem}.")
        return question


QUESTION_FILE_EXTENSIONS = (".jsonl", ".ndjson")


class QuestionSetForm(forms.Form):
    """A question set upload: the file's text is judged here (type, size, encoding, characters); its lines by
    ask.evaluation.questions_parse when saved."""

    name = forms.CharField(max_length=100, strip=True)
    file = forms.FileField(help_text="JSON lines (.jsonl), UTF-8, one question per line, up to the upload limit.")
    clearance = forms.ChoiceField(choices=SecurityLevel.choices, help_text="Retrieval runs at this clearance; only "
                                  "people cleared for it see the runs.")

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["clearance"].choices = [(value, label) for value, label in SecurityLevel.choices
                                            if value in SecurityLevel.up_to(user.clearance)]
        self.fields["clearance"].initial = user.clearance

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        problem = text_problem(name)
        if problem:
            raise forms.ValidationError(f"The name {problem}.")
        return name

    def clean_file(self) -> str:
        """The file's text (not the upload object)."""
        upload = self.cleaned_data["file"]
        name = PurePath(upload.name).name
        if PurePath(name).suffix.lower() not in QUESTION_FILE_EXTENSIONS:
            raise forms.ValidationError(f"“{name}” is not a JSON-lines file: upload a .jsonl file.")
        if upload.size > settings.KB_MAX_UPLOAD_BYTES:
            raise forms.ValidationError(f"“{name}” is {upload.size / 2**20:.1f} MB; the limit is "
                                        f"{settings.KB_MAX_UPLOAD_BYTES / 2**20:.1f} MB.")
        raw = upload.read()
        if b"\x00" in raw:
            raise forms.ValidationError(f"“{name}” looks like a binary file, not JSON lines.")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(f"“{name}” is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at position "
                                        f"{exc.start}). Save it as UTF-8 and upload it again.") from None
        problem = text_problem(text)
        if problem:
            raise forms.ValidationError(f"“{name}” {problem}.")
        self.filename = name
        return text
