"""The document renderers: escaping of any text in Markdown and HTML, and well-formed pages."""

import pytest
from hypothesis import given, settings

from asyncfail.document.html_page import html_text, to_html, to_html_fragment
from asyncfail.document.markdown import md_text, to_markdown
from asyncfail.document.markup import (
    Bullets,
    Callout,
    Callouts,
    Code,
    Document,
    Facts,
    Paragraph,
    Section,
    Steps,
    Strong,
    Table,
    plain,
)
from tests.markup_support import (
    HOSTILE,
    assert_loads_nothing,
    assert_self_contained_page,
    hostile_text,
    markdown_engines,
    parse_html,
)

# ---------------------------------------------------------------------------------------------
# Normalization


def test_plain_collapses_whitespace_and_drops_control_characters() -> None:
    assert plain("  a\n\tb\r\n c\u2028d\x00e\x02  ") == "a b c de"
    assert plain("") == ""
    assert plain("\n\n") == ""


# ---------------------------------------------------------------------------------------------
# Markdown escaping: any text stays one cell of one table, and shows exactly as typed


def _table_doc(cell: str) -> str:
    return f"| Question | Answer |\n|---|---|\n| {md_text(cell) or ' '} | after |\n"


def _assert_one_cell(rendered: str, expected: str) -> None:
    root, errors = parse_html(rendered)
    assert errors == []
    tables = root.find_all("table")
    assert len(tables) == 1
    rows = tables[0].find_all("tr")
    assert [len(r.find_all("th")) + len(r.find_all("td")) for r in rows] == [2, 2]
    cell = rows[1].find_all("td")[0]
    assert cell.elements() == [], f"markup inside the cell: {[n.tag for n in cell.elements()]}"
    assert cell.text().strip() == expected
    assert rows[1].find_all("td")[1].text() == "after"
    assert_loads_nothing(root)


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_any_text_stays_inside_its_markdown_table_cell(text: str) -> None:
    for html in markdown_engines(_table_doc(text)).values():
        _assert_one_cell(html, plain(text))


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_a_markdown_table_cell(text: str) -> None:
    source = _table_doc(text)
    assert "<script" not in source and "<img" not in source
    assert source.count("\n") == 3, "a newline in the text would end the row"
    for html in markdown_engines(source).values():
        _assert_one_cell(html, plain(text))


@settings(max_examples=200, deadline=None)
@given(hostile_text)
def test_any_text_stays_one_list_item_and_one_paragraph(text: str) -> None:
    source = f"- {md_text(text)}\n- after\n\n{md_text(text)}\n"
    for html in markdown_engines(source).values():
        root, errors = parse_html(html)
        assert errors == []
        items = root.find_all("li")
        assert [i.text().strip() for i in items] == [plain(text), "after"]
        assert all(i.elements() == [] for i in items)
        # Python-Markdown wraps a paragraph in <p>, marimo in <span class="paragraph">.
        paragraphs = {n.text().strip() for n in root.iter() if n.tag in {"p", "span"}}
        if plain(text):
            assert plain(text) in paragraphs


def test_ordinary_prose_stays_readable_in_raw_markdown() -> None:
    sentence = "Naive retry repeats; durable recovery looks up the key (attempt 2), then stops."
    assert md_text(sentence) == sentence
    assert md_text("1.5 days") == "1.5 days"
    assert md_text("1. a") == "1&#46; a"
    assert md_text("Review: sample") == "Review: sample"
    assert md_text("https://x") == "https&#58;//x"


# ---------------------------------------------------------------------------------------------
# HTML escaping


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_any_text_is_exactly_one_text_node_in_html(text: str) -> None:
    root, errors = parse_html(f'<td title="{html_text(text)}">{html_text(text)}</td>')
    assert errors == []
    (cell,) = root.elements()
    assert cell.children in ([plain(text)], [])
    assert cell.attrs["title"] == plain(text)


# ---------------------------------------------------------------------------------------------
# Whole documents


def _document(text: str) -> Document:
    return Document(
        kicker=text,
        title=text,
        intro=(Paragraph((text, Strong(text), Code(text))),),
        sections=(
            Section(
                text,
                (
                    Facts(((text, (text,)),)),
                    Bullets(((text,), (Code("ToolCalled"),))),
                    Table(header=(text, "b"), rows=(((text,), (text,)),)),
                    Steps(((1, (text,)), (2, (Code("DebitApplied"),)))),
                    Callouts((Callout(text, text, (text,)),)),
                ),
            ),
        ),
    )


@settings(max_examples=100, deadline=None)
@given(hostile_text)
def test_any_text_anywhere_keeps_the_html_page_well_formed(text: str) -> None:
    root = assert_self_contained_page(to_html(_document(text)))
    (table,) = root.find_all("table")
    assert [len(r.find_all("td")) for r in table.find_all("tr")[1:]] == [2]
    (callout,) = root.find_all("li", "callout")
    tones = {"neutral", "p0", "p1", "met", "unmet", "unknown"}
    assert callout.attrs["class"] in {f"callout {tone}" for tone in tones}


@pytest.mark.parametrize("tone", ['p0" onclick="alert(1)', "neutral", None])
def test_a_callout_tone_is_one_of_the_closed_set(tone: object) -> None:
    # The tone becomes a class attribute: nothing but a Tone may reach it.
    with pytest.raises(TypeError, match="must be a Tone"):
        Callout("b", "t", ("x",), tone=tone)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_anywhere_in_a_document(text: str) -> None:
    page = to_html(_document(text))
    root = assert_self_contained_page(page)
    assert "<script>" not in page and "<img" not in page
    assert len(root.find_all("table")) == 1
    fragment, errors = parse_html(to_html_fragment(_document(text)))
    assert errors == [] and [n.tag for n in fragment.elements()] == ["style", "article"]
    source = to_markdown(_document(text))
    assert "<script>" not in source and "<img" not in source
    for html in markdown_engines(source).values():
        rendered, errors = parse_html(html)
        assert errors == []
        assert_loads_nothing(rendered)
        (table,) = rendered.find_all("table")
        assert [len(r.find_all("td")) for r in table.find_all("tr")[1:]] == [2]


def test_table_rows_must_match_the_header() -> None:
    with pytest.raises(ValueError, match="cells"):
        Table(header=("a", "b"), rows=((("x",),),))


def test_steps_must_count_from_one_without_gaps() -> None:
    with pytest.raises(ValueError, match="without gaps"):
        Steps(((1, ("a",)), (3, ("b",))))


def test_code_that_needs_escaping_falls_back_to_escaped_text() -> None:
    doc = Document("k", "t", (Paragraph((Code("a`b|c"),)),), ())
    assert "`a`b" not in to_markdown(doc)
    assert "a&#96;b&#124;c" in to_markdown(doc)
