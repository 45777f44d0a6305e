import random
import re

import pytest
from markdown_it import MarkdownIt

from kb.chunking import ChunkDraft, chunk_markdown

LINE_BREAK = re.compile(r"\r\n?|\n")


def line_number(source: str, *, offset: int) -> int:
    return len(LINE_BREAK.findall(source[:offset])) + 1


def assert_offsets_hold(source: str, *, chunks: list[ChunkDraft]) -> None:
    assert [chunk.ordinal for chunk in chunks] == list(range(len(chunks)))
    previous_end = 0
    for chunk in chunks:
        assert source[chunk.char_start : chunk.char_end] == chunk.text
        assert chunk.text and chunk.text == chunk.text.strip()
        assert chunk.char_start >= previous_end
        previous_end = chunk.char_end
        assert chunk.line_start == line_number(source, offset=chunk.char_start)
        assert chunk.line_end == line_number(source, offset=chunk.char_end - 1)
        assert_paragraphs_inside(chunk, source=source)


def assert_paragraphs_inside(chunk: ChunkDraft, *, source: str) -> None:
    assert chunk.paragraphs[0][0] == chunk.char_start
    assert chunk.paragraphs[-1][1] == chunk.char_end
    for (start, end), (next_start, _) in zip(chunk.paragraphs, chunk.paragraphs[1:]):
        assert end < next_start
    for start, end in chunk.paragraphs:
        assert chunk.char_start <= start < end <= chunk.char_end
        assert source[start:end] == source[start:end].strip()


def top_level_blocks(source: str) -> list[tuple[str, int, int]]:
    """(token type, start, end) of each top-level block, straight from markdown-it's maps."""
    line_starts = [0, *(match.end() for match in LINE_BREAK.finditer(source)), len(source)]
    tokens = MarkdownIt("commonmark").enable("table").parse(source)
    return [
        (token.type, line_starts[token.map[0]], line_starts[min(token.map[1], len(line_starts) - 1)])
        for token in tokens
        if token.level == 0 and token.nesting >= 0 and token.map is not None
    ]


def assert_no_chunk_crosses_a_heading(source: str, *, chunks: list[ChunkDraft]) -> None:
    headings = [(start, end) for kind, start, end in top_level_blocks(source) if kind == "heading_open"]
    for heading_start, heading_end in headings:
        for chunk in chunks:
            assert chunk.char_end <= heading_start or chunk.char_start >= heading_end, (chunk, heading_start)


def test_empty_document_has_no_chunks() -> None:
    assert chunk_markdown("") == []
    assert chunk_markdown(" \n\n\t\n") == []


def test_document_with_only_headings_has_no_chunks() -> None:
    assert chunk_markdown("# One\n\n## Two\n\nThree\n=====\n### Four") == []


def test_heading_paths_follow_nesting_and_back_up() -> None:
    source = (
        "Preface.\n\n"
        "# Benefits\n\nBenefits intro.\n\n"
        "## Health insurance\n\nHealth text.\n\n"
        "### Dental\n\nDental text.\n\n"
        "## Pension\n\nPension text.\n\n"
        "# Leave\n\nLeave text.\n"
    )
    chunks = chunk_markdown(source)
    assert [(chunk.heading_path, chunk.text) for chunk in chunks] == [
        ("", "Preface."),
        ("Benefits", "Benefits intro."),
        ("Benefits > Health insurance", "Health text."),
        ("Benefits > Health insurance > Dental", "Dental text."),
        ("Benefits > Pension", "Pension text."),
        ("Leave", "Leave text."),
    ]
    assert_offsets_hold(source, chunks=chunks)
    assert_no_chunk_crosses_a_heading(source, chunks=chunks)


def test_heading_path_strips_inline_markdown() -> None:
    source = "# *Health* `insurance` [plan](https://example.com) &amp; **more**\n\nText.\n"
    assert chunk_markdown(source)[0].heading_path == "Health insurance plan & more"


def test_setext_headings_start_sections_and_stay_out_of_chunks() -> None:
    source = "Handbook\n========\n\nWelcome.\n\nVacation\n--------\nTwenty days.\n"
    chunks = chunk_markdown(source)
    assert [(chunk.heading_path, chunk.text, chunk.line_start) for chunk in chunks] == [
        ("Handbook", "Welcome.", 4),
        ("Handbook > Vacation", "Twenty days.", 8),
    ]


def test_a_chunk_never_crosses_a_heading_even_below_target() -> None:
    source = "# A\n\none\n\n## B\n\ntwo\n\n# C\n\nthree\n"
    chunks = chunk_markdown(source, target_chars=10_000, max_chars=20_000)
    assert [chunk.text for chunk in chunks] == ["one", "two", "three"]
    assert_no_chunk_crosses_a_heading(source, chunks=chunks)


@pytest.mark.parametrize(
    "block",
    [
        "\n".join(f"- item {number} with some words to make it long" for number in range(100)),
        "| id | name |\n|---:|------|\n" + "\n".join(f"| {number} | row {number} text text |" for number in range(120)),
        "```python\n" + "\n\n".join(f"value_{number} = {number}  # comment" for number in range(100)) + "\n```",
        "\n".join(f"> quoted line {number} with some words." for number in range(100)),
    ],
    ids=["list", "table", "fence-with-blank-lines", "blockquote"],
)
def test_large_lists_tables_code_and_quotes_stay_whole(block: str) -> None:
    source = f"# Section\n\nBefore.\n\n{block}\n\nAfter.\n"
    chunks = chunk_markdown(source, target_chars=100, max_chars=200)
    assert len(block) > 2000
    assert [chunk.text for chunk in chunks] == ["Before.", block, "After."]
    assert chunks[1].paragraphs == ((chunks[1].char_start, chunks[1].char_end),)
    assert_offsets_hold(source, chunks=chunks)


SENTENCES = [
    sentence
    for number in range(30)
    for sentence in (
        f"Rule {number} applies to the U.S. office, e.g. to staff paid 3.5 percent more than Dr. Smith.",
        "Pay fell... then rose again (see J. Doe, approx. 1,200 €)!",
    )
]


def test_long_paragraph_splits_into_sentences() -> None:
    paragraph = " ".join(SENTENCES)
    # A target of one char flushes after every piece, exposing each cut.
    chunks = chunk_markdown(paragraph, target_chars=1, max_chars=1000)
    assert [chunk.text for chunk in chunks] == SENTENCES


def test_long_paragraph_chunks_hold_whole_sentences() -> None:
    source = "# Pay\n\n" + " ".join(SENTENCES) + "\n"
    chunks = chunk_markdown(source, target_chars=500, max_chars=1000)

    assert len(chunks) > 1
    remaining = SENTENCES
    for chunk in chunks:
        taken = next(count for count in range(1, len(remaining) + 1) if " ".join(remaining[:count]) == chunk.text)
        remaining = remaining[taken:]
        # Sentences of one paragraph form one range, not one per sentence.
        assert chunk.paragraphs == ((chunk.char_start, chunk.char_end),)
    assert remaining == []
    assert_offsets_hold(source, chunks=chunks)


def test_paragraph_within_max_chars_is_not_split() -> None:
    paragraph = " ".join(["A short sentence here."] * 60)
    chunks = chunk_markdown(paragraph, target_chars=100, max_chars=len(paragraph))
    assert [chunk.text for chunk in chunks] == [paragraph]


def test_single_sentence_longer_than_max_chars_stays_whole() -> None:
    sentence = "This sentence never ends " + "and goes on " * 300 + "until here."
    source = f"Short one. {sentence} Another one."
    chunks = chunk_markdown(source, target_chars=5, max_chars=100)
    assert [chunk.text for chunk in chunks] == ["Short one.", sentence, "Another one."]


def test_chunks_flush_once_they_reach_target_chars() -> None:
    paragraphs = [f"{number:03d} " + "x" * 296 for number in range(10)]
    source = "\n\n".join(paragraphs)
    chunks = chunk_markdown(source, target_chars=1000, max_chars=2000)
    # 3 paragraphs plus gaps make 904 chars, the 4th one passes the target.
    assert [len(chunk.paragraphs) for chunk in chunks] == [4, 4, 2]
    assert_offsets_hold(source, chunks=chunks)


def test_a_block_that_would_pass_max_chars_starts_a_new_chunk() -> None:
    source = "\n\n".join("y" * 300 for _ in range(7))
    chunks = chunk_markdown(source, target_chars=1000, max_chars=1100)
    assert [len(chunk.paragraphs) for chunk in chunks] == [3, 3, 1]
    assert all(len(chunk.text) <= 1100 for chunk in chunks)


def test_paragraph_ranges_slice_to_the_blocks() -> None:
    blocks = ["Intro text.", "- one\n- two", "| a | b |\n|---|---|\n| 1 | 2 |", "```\ncode\n```", "> quoted"]
    source = "## Mixed\n\n" + "\n\n".join(blocks) + "\n"
    (chunk,) = chunk_markdown(source)
    assert [source[start:end] for start, end in chunk.paragraphs] == blocks


def test_thematic_break_is_not_a_block() -> None:
    source = "One.\n\n---\n\nTwo.\n"
    (chunk,) = chunk_markdown(source)
    assert [source[start:end] for start, end in chunk.paragraphs] == ["One.", "Two."]


def test_crlf_and_lone_cr_line_breaks() -> None:
    unix = "# Title\n\nFirst line\nsecond line.\n\n## Sub\n\n- a\n- b\n"
    for newline in ("\r\n", "\r"):
        source = unix.replace("\n", newline)
        chunks = chunk_markdown(source)
        assert [(c.heading_path, c.text, c.line_start, c.line_end) for c in chunks] == [
            ("Title", f"First line{newline}second line.", 3, 4),
            ("Title > Sub", f"- a{newline}- b", 8, 9),
        ]
        assert_offsets_hold(source, chunks=chunks)


def test_offsets_are_str_indices_with_multibyte_text() -> None:
    source = "# Überblick 😀\n\n日本語の文です。次の文です。\n\n## Straße\n\nÄpfel kosten 3,50 € — 🍎 günstig.\n"
    chunks = chunk_markdown(source)
    assert [chunk.heading_path for chunk in chunks] == ["Überblick 😀", "Überblick 😀 > Straße"]
    assert chunks[1].char_start == source.index("Äpfel")
    assert_offsets_hold(source, chunks=chunks)


def test_cjk_paragraph_splits_at_full_stops() -> None:
    paragraph = "".join(f"第{number}条の規則はすべての社員に適用されます。" for number in range(100))
    chunks = chunk_markdown(paragraph, target_chars=200, max_chars=400)
    assert len(chunks) > 1
    assert all(chunk.text.endswith("。") for chunk in chunks)
    assert "".join(chunk.text for chunk in chunks) == paragraph


def test_front_matter_is_an_ordinary_block_not_a_heading() -> None:
    source = "---\ntitle: Handbook\nowner: hr\n---\n\nIntro.\n\n# Start\n\nBody.\n"
    chunks = chunk_markdown(source)
    assert [(chunk.heading_path, chunk.text) for chunk in chunks] == [
        ("", "---\ntitle: Handbook\nowner: hr\n---\n\nIntro."),
        ("Start", "Body."),
    ]


def test_html_block_is_an_ordinary_block() -> None:
    source = "# H\n\n<div class='note'>\nKeep this.\n</div>\n\nAfter.\n"
    chunks = chunk_markdown(source, target_chars=5)
    assert [chunk.text for chunk in chunks] == ["<div class='note'>\nKeep this.\n</div>", "After."]


def test_rejects_target_above_max() -> None:
    with pytest.raises(ValueError):
        chunk_markdown("text", target_chars=10, max_chars=5)


WORDS = ["policy", "staff", "Straße", "naïve", "日本", "€12", "3.5", "rose", "fell", "e.g.", "U.S.", "😀", "leave"]


def random_sentence(rng: random.Random) -> str:
    return "Word " + " ".join(rng.choices(WORDS, k=rng.randint(2, 14))) + rng.choice([".", "!", "?"])


def random_block(rng: random.Random) -> str:
    kind = rng.choice(["atx", "setext", "paragraph", "paragraph", "long", "list", "table", "fence", "quote"])
    if kind == "atx":
        return "#" * rng.randint(1, 6) + " Heading " + rng.choice(WORDS)
    if kind == "setext":
        return f"Title {rng.choice(WORDS)}\n" + rng.choice(["===", "---"])
    if kind in ("paragraph", "long"):
        count = rng.randint(1, 4) if kind == "paragraph" else rng.randint(20, 60)
        return rng.choice([" ", "\n"]).join(random_sentence(rng) for _ in range(count))
    if kind == "list":
        return "\n".join(f"{rng.choice(['-', '*', '1.'])} {random_sentence(rng)}" for _ in range(rng.randint(1, 30)))
    if kind == "table":
        rows = [f"| {rng.choice(WORDS)} | {rng.randint(0, 99)} |" for _ in range(rng.randint(0, 20))]
        return "\n".join(["| name | value |", "|---|--:|", *rows])
    if kind == "fence":
        return "```\n" + "\n\n".join(random_sentence(rng) for _ in range(rng.randint(0, 10))) + "\n```"
    return "\n".join(f"> {random_sentence(rng)}" for _ in range(rng.randint(1, 10)))


def random_document(rng: random.Random) -> str:
    blocks = [random_block(rng) for _ in range(rng.randint(0, 30))]
    text = "".join(block + "\n" * rng.randint(2, 3) for block in blocks)
    text = text.rstrip("\n") + rng.choice(["", "\n"])
    return text.replace("\n", rng.choice(["\n", "\r\n"]))


@pytest.mark.parametrize("seed", range(40))
def test_generated_documents_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    source = random_document(rng)
    target_chars = rng.choice([50, 300, 1000])
    max_chars = target_chars * rng.choice([1, 2, 3])
    chunks = chunk_markdown(source, target_chars=target_chars, max_chars=max_chars)

    assert_offsets_hold(source, chunks=chunks)
    assert_no_chunk_crosses_a_heading(source, chunks=chunks)
    for chunk in chunks:
        assert len(chunk.text) <= max_chars or len(chunk.paragraphs) == 1
    covered = {offset for chunk in chunks for offset in range(chunk.char_start, chunk.char_end)}
    for kind, start, end in top_level_blocks(source):
        if kind in ("heading_open", "hr"):
            continue
        visible = {offset for offset in range(start, end) if not source[offset].isspace()}
        assert visible <= covered, source[start:end]
