"""The committed .mo files are what their .po files say, and every message is translated.

A fresh checkout has no gettext tools, so the compiled catalogues are committed; this recompiles each .po with
polib (pure Python) and compares message by message, so an edited .po without `manage.py compilemessages` fails.
"""

from pathlib import Path

import polib
import pytest

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
CATALOGUES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/django.po"))


def _messages(catalogue: polib._BaseFile) -> dict[tuple[str | None, str], object]:
    """(context, msgid) → the translation, plural forms as a tuple; the header entry left out."""
    return {
        (entry.msgctxt, entry.msgid): (tuple(entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural))
                                       if entry.msgid_plural else entry.msgstr)
        for entry in catalogue if entry.msgid
    }


def test_there_is_a_chinese_catalogue():
    assert LOCALE_DIR / "zh_Hans" / "LC_MESSAGES" / "django.po" in CATALOGUES


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda path: path.parts[-3])
def test_committed_mo_matches_its_po(po_path, tmp_path):
    po = polib.pofile(str(po_path))
    recompiled = tmp_path / "django.mo"
    po.save_as_mofile(str(recompiled))

    committed = polib.mofile(str(po_path.with_suffix(".mo")))

    assert _messages(committed) == _messages(polib.mofile(str(recompiled)))
    # msgfmt leaves fuzzy entries out of the .mo; the comparison above would then hide them.
    assert len(_messages(committed)) == len(_messages(po))


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda path: path.parts[-3])
def test_every_message_is_translated_and_none_is_fuzzy(po_path):
    po = polib.pofile(str(po_path))

    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    assert not po.metadata_is_fuzzy
