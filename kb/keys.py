"""A document key suggested from its title: a slug, with Chinese characters spelled in pinyin ("差旅政策" →
"cha-lv-zheng-ce"), so a Chinese title gets a readable ASCII key as an English one does."""

from __future__ import annotations

from django.utils.text import slugify
from pypinyin import lazy_pinyin

KEY_MAX_CHARS = 100  # as the browser's own suggestion cuts it


def document_key_suggest(*, title: str) -> str:
    """Each Chinese character becomes its toneless syllable (ü as v, pypinyin's plain style), a word of its own;
    other text is slugged as it is. Empty when nothing in the title can make a key."""
    spelled = " ".join(lazy_pinyin(title[:KEY_MAX_CHARS * 2], errors="default"))
    return slugify(spelled)[:KEY_MAX_CHARS].strip("-")
