"""The instructor guide as a document: the lesson plans laid out with the catalog and the checks.

``guide_markdown()`` is ``docs/teaching.md``, written by ``make golden`` and kept current by a
test. The guide's own words are ``course.teaching`` and the lessons' plans; the lessons'
titles, minutes and outcomes come from ``course.catalog``, their checks from
``course.questions``, and every figure from running the model (``course.demos``).
"""

from typing import Final

from asyncfail.course import (
    assumptions_teaching,
    contract_teaching,
    explore_teaching,
    handoff_teaching,
    lab_teaching,
    readiness_teaching,
    records_teaching,
    teaching,
    workers_teaching,
)
from asyncfail.course.catalog import COURSE_LINE, COURSE_TITLE, LESSONS, LessonInfo, lesson
from asyncfail.course.demos import WORKED_DESIGN, ReadinessDemo, answer_text
from asyncfail.course.teaching import (
    CLASS_MINUTES,
    Demo,
    LessonPlan,
    Misconception,
    Reveal,
    lesson_name,
)
from asyncfail.ground.prose import number_word, quoted
from asyncfail.ground.quiz import Question
from asyncfail.handoff.design import QUESTIONS
from asyncfail.handoff.markdown import to_markdown
from asyncfail.handoff.markup import (
    Block,
    Bullets,
    Code,
    Document,
    Inline,
    Paragraph,
    Rich,
    Section,
    Strong,
    Subsection,
    Table,
)

PLANS: Final[tuple[LessonPlan, ...]] = (
    lab_teaching.PLAN,
    assumptions_teaching.PLAN,
    contract_teaching.PLAN,
    explore_teaching.PLAN,
    workers_teaching.PLAN,
    records_teaching.PLAN,
    readiness_teaching.PLAN,
    handoff_teaching.PLAN,
)
"""One plan per lesson, in course order."""


def inline(text: str) -> Rich:
    """Text with backtick code spans as inline parts: ``a `b` c`` is ``a ``, ``Code("b")``,
    `` c``. Rule: backticks come in pairs (a ValueError otherwise)."""
    pieces = text.split("`")
    if len(pieces) % 2 == 0:
        raise ValueError(f"unpaired backtick in {text!r}")
    parts: list[Inline] = [Code(p) if i % 2 else p for i, p in enumerate(pieces)]
    return tuple(p for p in parts if p != "")


def _title(plan: LessonPlan, part: str) -> str:
    return teaching.PART_TITLE.format(lesson=lesson_name(plan.stem), part=part)


def _demo_table(demos: tuple[Demo, ...], *, with_lesson: bool) -> Table:
    """Each demo's setting and what the model shows; with the lesson it is set in, when a
    part of the guide may point to another lesson."""
    set_, shows = teaching.SET, teaching.SHOWS
    if with_lesson:
        rows = tuple(((lesson_name(d.lesson),), d.setting(), d.shows()) for d in demos)
        return Table(header=(teaching.LESSON, set_, shows), rows=rows)
    return Table(header=(set_, shows), rows=tuple((d.setting(), d.shows()) for d in demos))


def _glance() -> Section:
    rows = tuple(
        (
            (info.title,),
            (Code(f"notebooks/{info.stem}.py"),),
            (f"{info.minutes} min",),
            (f"{CLASS_MINUTES} min",),
        )
        for info in LESSONS
    )
    return Section(teaching.GLANCE_TITLE, (Table(header=teaching.GLANCE_HEADER, rows=rows),))


def _plan_section(info: LessonInfo, plan: LessonPlan) -> Section:
    start = 0
    rows: list[tuple[Rich, ...]] = []
    for segment in plan.segments:
        end = start + segment.minutes
        rows.append(
            (
                (teaching.MINUTES.format(start=start, end=end),),
                (segment.name,),
                inline(segment.instructor),
                inline(segment.learners),
            )
        )
        start = end
    time = teaching.CLASS_TIME.format(alone=info.minutes, minutes=CLASS_MINUTES)
    blocks: tuple[Block, ...] = (
        Paragraph((info.summary,)),
        Paragraph((time,)),
        Bullets(tuple((outcome,) for outcome in info.outcomes)),
        Subsection(teaching.PLAN_TITLE, (Table(header=teaching.PLAN_HEADER, rows=tuple(rows)),)),
    )
    return Section(_title(plan, info.title), blocks)


def _reveal(reveal: Reveal) -> Subsection:
    # A heading shows code as plain text: the backticks go.
    return Subsection(
        teaching.REVEAL_TITLE.format(before=reveal.before.replace("`", "")),
        (
            Paragraph((teaching.ASK,)),
            Bullets(tuple(inline(q) for q in reveal.questions)),
            _demo_table(reveal.demos, with_lesson=False),
        ),
    )


def _worked_design() -> Subsection:
    rows = tuple(((QUESTIONS[field],), (answer_text(raw),)) for field, raw in WORKED_DESIGN)
    table = Table(header=teaching.WORKED_DESIGN_HEADER, rows=rows)
    return Subsection(teaching.WORKED_DESIGN_TITLE, (table,))


def _reveals_section(plan: LessonPlan) -> Section:
    """The lesson's reveals, after the worked design when one of them starts from it."""
    blocks: list[Block] = [Paragraph((teaching.REVEALS_LEAD,))]
    demos = [d for r in plan.reveals for d in r.demos]
    if any(isinstance(d, ReadinessDemo) and d.worked for d in demos):
        blocks.append(_worked_design())
    blocks += [_reveal(r) for r in plan.reveals]
    return Section(_title(plan, teaching.REVEALS_TITLE), tuple(blocks))


def _misconception(misconception: Misconception) -> Subsection:
    return Subsection(
        quoted(misconception.belief),
        (
            Paragraph(inline(misconception.answer)),
            _demo_table(misconception.demos, with_lesson=True),
        ),
    )


def _misconceptions_section(plan: LessonPlan) -> Section:
    return Section(
        _title(plan, teaching.MISCONCEPTIONS_TITLE),
        (
            Paragraph((teaching.MISCONCEPTIONS_LEAD,)),
            *(_misconception(m) for m in plan.misconceptions),
        ),
    )


def _check_section(plan: LessonPlan) -> Section:
    question: Question = plan.check
    options = tuple(
        (Strong(option), teaching.ANSWER_MARK) if option == question.answer else inline(option)
        for option in question.options
    )
    # Paragraphs, not a second list: two lists in a row would merge into one in Markdown.
    answer = Paragraph((Strong(f"{teaching.ANSWER}:"), " ", *inline(question.answer)))
    why = Paragraph((Strong(f"{teaching.WHY}:"), " ", *inline(question.explanation)))
    return Section(
        _title(plan, teaching.CHECK_TITLE),
        (Paragraph(inline(question.prompt)), Bullets(options), answer, why),
    )


def guide_document() -> Document:
    """The whole guide: the introduction, before class, the course at a glance, then per
    lesson its plan, its reveals, its misconceptions and its check."""
    purpose = teaching.PURPOSE.format(lessons=number_word(len(LESSONS)), minutes=CLASS_MINUTES)
    intro = (
        Paragraph((COURSE_LINE,)),
        Paragraph((purpose,)),
        Paragraph((teaching.ASK_FIRST,)),
        Paragraph(inline(teaching.PROVENANCE.format(shows=quoted(teaching.SHOWS)))),
    )
    sections = [
        Section(
            teaching.BEFORE_CLASS_TITLE,
            (Bullets(tuple(inline(item) for item in teaching.BEFORE_CLASS)),),
        ),
        _glance(),
    ]
    for plan in PLANS:
        sections += [
            _plan_section(lesson(plan.stem), plan),
            _reveals_section(plan),
            _misconceptions_section(plan),
            _check_section(plan),
        ]
    return Document(
        kicker=f"{COURSE_TITLE} · {teaching.KICKER}",
        title=teaching.TITLE,
        intro=intro,
        sections=tuple(sections),
    )


def guide_markdown() -> str:
    """The guide as Markdown: the text of ``docs/teaching.md``."""
    return to_markdown(guide_document())
