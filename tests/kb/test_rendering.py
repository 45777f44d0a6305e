from html.parser import HTMLParser

import pytest

from kb.chunking import chunk_markdown
from kb.rendering import block_lines, paragraph_notes_insert, render_markdown, sanitize_html


class ElementCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))


def elements(html: str) -> list[tuple[str, dict[str, str | None]]]:
    collector = ElementCollector()
    collector.feed(html)
    return collector.elements


def anchored(html: str) -> list[tuple[str, str | None]]:
    return [(tag, attrs["id"]) for tag, attrs in elements(html) if "id" in attrs]


def test_every_top_level_block_gets_its_first_line_as_anchor() -> None:
    source = (
        "# Title\n"  # 1
        "\n"
        "Para one\n"  # 3
        "continues.\n"
        "\n"
        "- a\n"  # 6
        "- b\n"
        "\n"
        "1. x\n"  # 9
        "\n"
        "| a | b |\n"  # 11
        "|---|---|\n"
        "| 1 | 2 |\n"
        "\n"
        "```python\n"  # 15
        "print(1)\n"
        "```\n"
        "\n"
        "> quoted\n"  # 19
        "\n"
        "    indented code\n"  # 21
        "\n"
        "Setext\n"  # 23
        "------\n"
    )
    assert anchored(render_markdown(source)) == [
        ("h1", "L1"),
        ("p", "L3"),
        ("ul", "L6"),
        ("ol", "L9"),
        ("table", "L11"),
        ("pre", "L15"),
        ("blockquote", "L19"),
        ("pre", "L21"),
        ("h2", "L23"),
    ]


def test_nested_blocks_get_no_anchor() -> None:
    html = render_markdown("- item\n\n  loose paragraph\n\n> > inner quote\n")
    assert anchored(html) == [("ul", "L1"), ("blockquote", "L5")]


def test_anchors_count_crlf_lines() -> None:
    html = render_markdown("# A\r\n\r\nText\r\n\r\n## B\r\n")
    assert anchored(html) == [("h1", "L1"), ("p", "L3"), ("h2", "L5")]


def test_front_matter_is_shown_as_code_and_lines_stay_aligned() -> None:
    html = render_markdown("---\ntitle: Handbook\n---\n\n# Start\n")
    assert anchored(html) == [("pre", "L1"), ("h1", "L5")]
    assert "title: Handbook" in html


def test_every_chunk_that_starts_a_block_has_an_anchor() -> None:
    source = (
        "---\nkey: demo\n---\n\n# Benefits\n\nIntro.\n\n## Health\n\n- one\n- two\n\n"
        "| a |\n|---|\n| 1 |\n\n<div>raw</div>\n\n```\ncode\n```\n\nHealth\n======\n\nLast.\n"
    )
    html = render_markdown(source)
    for chunk in chunk_markdown(source, target_chars=1):
        assert f'id="L{chunk.line_start}"' in html, chunk


def test_script_tags_are_neutralised() -> None:
    html = render_markdown("Hello <script>alert(1)</script>\n\n<script>\nalert(2)\n</script>\n")
    assert all(tag != "script" for tag, _ in elements(html))
    assert "&lt;script&gt;" in html


def test_event_handlers_and_styles_never_become_attributes() -> None:
    source = '<img src="x" onerror="alert(1)">\n\nText <span style="color:red" onclick="x()">hi</span>\n'
    for tag, attrs in elements(render_markdown(source)):
        assert not any(name.startswith("on") or name == "style" for name in attrs), (tag, attrs)


@pytest.mark.parametrize(
    "source",
    [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        '<a href="javascript:alert(1)">click</a>',
        "[click](vbscript:msgbox)",
        "![pic](javascript:alert(1))",
    ],
)
def test_script_urls_never_become_links(source: str) -> None:
    for _, attrs in elements(render_markdown(source)):
        for name in ("href", "src"):
            assert not (attrs.get(name) or "").lower().startswith(("javascript:", "vbscript:"))


def test_links_keep_safe_schemes_and_get_rel() -> None:
    html = render_markdown("[a](https://example.com/x) [b](/docs/page#part) [c](mailto:hr@example.com) [d](other.md)")
    links = [attrs for tag, attrs in elements(html) if tag == "a"]
    assert [link["href"] for link in links] == [
        "https://example.com/x",
        "/docs/page#part",
        "mailto:hr@example.com",
        "other.md",
    ]
    assert all(link["rel"] == "noopener noreferrer" for link in links)


def test_images_only_from_http_or_relative_sources() -> None:
    source = "![a](https://example.com/a.png) ![b](img/b.png) ![c](data:image/png;base64,AAAA) ![d](mailto:x@e.com)"
    images = [attrs for tag, attrs in elements(render_markdown(source)) if tag == "img"]
    assert [(image["alt"], image.get("src")) for image in images] == [
        ("a", "https://example.com/a.png"),
        ("b", "img/b.png"),
        ("c", None),
        ("d", None),
    ]


def test_table_alignment_survives_as_class_not_style() -> None:
    html = render_markdown("| a | b |\n|:-:|--:|\n| 1 | 2 |\n")
    cells = [attrs for tag, attrs in elements(html) if tag in ("th", "td")]
    assert [cell.get("class") for cell in cells] == ["align-center", "align-right"] * 2
    assert "style" not in html


def test_code_language_class_is_kept() -> None:
    html = render_markdown("```python\nx = 1\n```\n")
    assert '<pre id="L1"><code class="language-python">x = 1\n</code></pre>' in html


def test_sanitizer_strips_foreign_ids_styles_handlers_and_scripts() -> None:
    html = sanitize_html(
        '<p id="main" style="color:red" onclick="x()">a</p><p id="L7">b</p>'
        '<a href="javascript:alert(1)">c</a><script>alert(1)</script><iframe src="https://x"></iframe>'
    )
    assert html == '<p>a</p><p id="L7">b</p><a rel="noopener noreferrer">c</a>'


def test_block_lines_are_the_rendered_anchors() -> None:
    source = "# Title\n\nA paragraph\nwrapped.\n\n- one\n- two\n\n| a |\n|---|\n| 1 |\n\n```\ncode\n```\n"

    assert block_lines(source) == [int(anchor[1:]) for _, anchor in anchored(render_markdown(source))]
    assert block_lines(source) == [1, 3, 6, 9, 13]


def test_a_note_goes_just_before_the_block_of_its_line() -> None:
    html = render_markdown("# Title\n\nFirst.\n\n- a list\n\n| a |\n|---|\n| 1 |\n")

    noted = paragraph_notes_insert(html, {3: "<i>three</i>", 5: "<i>five</i>", 7: "<i>seven</i>", 99: "<i>x</i>"})

    assert '<i>three</i><p id="L3">' in noted
    assert '<i>five</i><ul id="L5">' in noted
    assert '<i>seven</i><table id="L7">' in noted
    assert "<i>x</i>" not in noted
    assert paragraph_notes_insert(html, {}) == html
