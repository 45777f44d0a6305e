from django import template

from console.system_notes import system_note_display

register = template.Library()


@register.filter
def system_note(text: str) -> str:
    """A note or actor label the console stored in English, in the reader's language (console/system_notes.py)."""
    return system_note_display(text or "")
