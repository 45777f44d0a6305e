"""Inputs shared by the checker's tests and its fuzzer (bench/fuzz_checker.py): a stand-in embedder and the
characters that have broken text code before."""

import re
import zlib

import numpy as np

ODD = ["²", "³", "¹", "⁴", "½", "¼", "⅓", "１２３", "٣٤", "۵", "०१", "\x00", "\u200f", "\u200e", "\u202e", "\ufeff",
       "😀", "👩‍👩‍👧", "🇺🇸", "\u0301", "e\u0301", "ß", "İ", "ﬁ", "\u2028", "\u00a0", "\t", "\r\n", "\ud800", "…", "’",
       "—", "–", "−", "$", "€", "£", "%", "°C", "km²", "m³", "10²", "1,000", "3.5", "2024-02-30", "99:99", "12 p.m.",
       "|", "| a | b |", "# ", "- ", "1. ", "**", "`", "(", ")", "[", "]", ".", "!", "?", ",", ";", ":", "U.S.", "e.g.",
       "não", "日本語。", "Ω", "ǅ", "ⅷ", "⑫", "𝟙𝟚", "𝐀", "\x0c", "\x85"]
WORDS = ["the", "rate", "rose", "fell", "to", "by", "percent", "per", "month", "Pro", "plan", "costs", "$12",
         "users", "14", "days", "at", "least", "not", "never", "Refunds", "are", "available", "within", "of",
         "March", "2023", "employees", "must", "report", "lost", "laptops", "in", "2", "hours", "and", ",", "."]


def bag_of_words_embed(queries: list[str], passages: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """A deterministic stand-in for a sentence model (checking.base.Embedder): hashed word counts, L2-normalised;
    queries and passages alike."""
    return _bag_of_words(queries), _bag_of_words(passages)


def _bag_of_words(texts: list[str]) -> np.ndarray:
    rows = np.zeros((len(texts), 512))
    for i, text in enumerate(texts):
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            rows[i, zlib.crc32(word.encode()) % 512] += 1.0
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)
