"""Markdown to safe HTML, with line anchors a chunk inspector can link to.

Every top-level block gets ``id="L{n}"`` (n = its first 1-based source line),
so ``#L{chunk.line_start}`` lands on the block where a chunk starts. A chunk cut
from the middle of a long paragraph starts on a line without an anchor of its
own; its block's anchor is the nearest one above. Raw HTML in the Markdown is
shown as text, never interpreted, and the result is sanitised with nh3 as a
second line of defence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from kb.chunking import parse_markdown

_ANCHORED_TOKENS = frozenset(
    {
        "paragraph_open",
        "heading_open",
        "bullet_list_open",
        "ordered_list_open",
        "table_open",
        "blockquote_open",
        "fence",
        "code_block",
        "html_block",
    }
)
_ALIGN_STYLE = re.compile(r"text-align:(left|center|right)")

_ALLOWED_TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "pre", "code",
    "em", "strong", "del", "a", "img", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {
    "*": {"id"},
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
    "code": {"class"},
    "th": {"class"},
    "td": {"class"},
}
_LINE_ANCHOR = re.compile(r"L\d+")
_CODE_CLASS = re.compile(r"language-[\w#+.-]+")
_CELL_CLASS = re.compile(r"align-(?:left|center|right)")
_URL_SCHEME = re.compile(r"\s*([a-zA-Z][a-zA-Z0-9+.-]*):")
_LINK_SCHEMES = {"http", "https", "mailto"}
_IMAGE_SCHEMES = frozenset({"http", "https"})


def _render_fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    # The stock rule puts token attrs on <code>; the anchor belongs on <pre>.
    token = tokens[idx]
    language = unescapeAll(token.info).split(maxsplit=1)[0] if token.info.strip() else ""
    code_class = f' class="{escapeHtml(options.langPrefix + language)}"' if language else ""
    return f"<pre{_id_attr(token)}><code{code_class}>{escapeHtml(token.content)}</code></pre>\n"


def _render_html_block_as_text(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    return f"<pre{_id_attr(token)}><code>{escapeHtml(token.content)}</code></pre>\n"


def _render_html_inline_as_text(
    self: RendererHTML, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    return escapeHtml(tokens[idx].content)


def _id_attr(token: Token) -> str:
    anchor = token.attrGet("id")
    return f' id="{anchor}"' if anchor else ""


# html stays on so raw HTML gets the same block structure (and line numbers) as
# in the chunker; its render rules print it as text instead.
_PARSER = MarkdownIt("commonmark").enable("table")
_PARSER.add_render_rule("fence", _render_fence)
_PARSER.add_render_rule("html_block", _render_html_block_as_text)
_PARSER.add_render_rule("html_inline", _render_html_inline_as_text)


def render_markdown(source: str) -> str:
    parsed = parse_markdown(source, parser=_PARSER)
    _add_line_anchors(parsed.tokens)
    _replace_alignment_styles(parsed.tokens)
    html = _render_front_matter(parsed.front_matter)
    html += _PARSER.renderer.render(parsed.tokens, _PARSER.options, {})
    return sanitize_html(html)


def block_lines(source: str) -> list[int]:
    """The first lines of the rendered top-level blocks (their #L anchors), in order: a quote belongs to the last
    block starting at or before its line."""
    parsed = parse_markdown(source, parser=_PARSER)
    lines = [1] if parsed.front_matter else []
    lines += [token.map[0] + 1 for token in parsed.tokens
              if token.level == 0 and token.type in _ANCHORED_TOKENS and token.map is not None]
    return sorted(set(lines))


_BLOCK_WITH_ANCHOR = re.compile(r'<(p|h[1-6]|ul|ol|table|blockquote|pre) id="L(\d+)"')


def paragraph_notes_insert(html: str, notes: dict[int, str]) -> str:
    """Put each note (trusted HTML) just before the rendered block whose anchor is #L<line>: the sanitised HTML
    keeps ids only on top-level blocks, so each is found by its anchor."""
    if not notes:
        return html

    def with_note(match: re.Match[str]) -> str:
        note = notes.get(int(match.group(2)))
        return f"{note}{match.group(0)}" if note else match.group(0)

    return _BLOCK_WITH_ANCHOR.sub(with_note, html)


def sanitize_html(html: str) -> str:
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        attribute_filter=_filter_attribute,
        url_schemes=_LINK_SCHEMES,
        link_rel="noopener noreferrer",
    )


def _add_line_anchors(tokens: list[Token]) -> None:
    for token in tokens:
        if token.level == 0 and token.type in _ANCHORED_TOKENS and token.map is not None:
            token.attrSet("id", f"L{token.map[0] + 1}")


def _replace_alignment_styles(tokens: list[Token]) -> None:
    """Table alignment comes as inline styles, which the sanitiser drops; keep it as a class."""
    for token in tokens:
        alignment = _ALIGN_STYLE.fullmatch(str(token.attrGet("style") or ""))
        if token.type in ("th_open", "td_open") and alignment:
            token.attrs.pop("style")
            token.attrSet("class", f"align-{alignment.group(1)}")


def _render_front_matter(front_matter: str) -> str:
    # Shown as it is, like any other block: curators should see what they uploaded.
    return f'<pre id="L1"><code>{escapeHtml(front_matter)}</code></pre>\n' if front_matter else ""


def _filter_attribute(tag: str, attribute: str, value: str) -> str | None:
    if attribute == "id":
        return value if _LINE_ANCHOR.fullmatch(value) else None
    if attribute == "class":
        allowed_class = _CODE_CLASS if tag == "code" else _CELL_CLASS
        return value if allowed_class.fullmatch(value) else None
    if tag == "img" and attribute == "src":
        # url_schemes applies to src as well, and mailto: is no image source.
        scheme = _URL_SCHEME.match(value)
        return value if scheme is None or scheme.group(1).lower() in _IMAGE_SCHEMES else None
    return value
