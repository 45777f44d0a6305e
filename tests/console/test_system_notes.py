"""Notes the console stored in English are shown in the reader's language; a person's note is left alone."""

from django.utils import translation

from console.system_notes import system_note_display


def test_known_notes_are_shown_in_chinese():
    with translation.override("zh-hans"):
        assert system_note_display("approved at import") == "导入时批准"
        assert system_note_display("imported from travel-policy.md") == "导入自 travel-policy.md"
        assert system_note_display("the console on first start") == "控制台首次启动时"


def test_notes_stay_english_in_english():
    with translation.override("en"):
        assert system_note_display("imported from travel-policy.md") == "imported from travel-policy.md"


def test_a_persons_note_is_unchanged():
    with translation.override("zh-hans"):
        assert system_note_display("approved at import, checked by Ana") == "approved at import, checked by Ana"
