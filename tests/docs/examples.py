"""What the instructor guide's examples call: a few lines each on the library and the CLI.

``docs/teaching.md`` is written by hand; its claims about the model are Python sessions
(```` ```pycon ```` blocks) that ``tests/docs/test_teaching_md.py`` runs against fresh runs. The
examples name runs by the options of the ``asyncfail`` command (``lab("--fault response-lost")``
is ``asyncfail lab --fault response-lost`` under each runtime), so an instructor can type the
same run in a terminal; each helper prints a run's figures, a line or a few.

Every helper reads the options with the CLI's own parser and runs the library: nothing here
decides a figure.
"""

import argparse
import json
import shlex
from functools import lru_cache

from asyncfail.charts.lanes import lane_name
from asyncfail.cli.lab import scenario_of
from asyncfail.cli.main import build_parser
from asyncfail.cli.risk import inputs_of
from asyncfail.cli.settings_options import settings_of
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.terms import DISPOSITION_LABEL, EFFECTS_LABEL, RECORD_LABEL
from asyncfail.explore.explorer import Exploration
from asyncfail.explore.explorer import explore as run_explorer
from asyncfail.explore.invariants import Invariant
from asyncfail.ground.durations import approx, human
from asyncfail.ground.engine_verified import ENGINE_VERIFIED_JSON
from asyncfail.ground.prose import counted, quoted
from asyncfail.ground.seed import Boundary
from asyncfail.lab.faults import Fault, FaultPlan, plan_text
from asyncfail.lab.restore import restorations
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES, Mode, Scenario
from asyncfail.lab.simulation import simulate
from asyncfail.readiness.design import design_from_answers
from asyncfail.readiness.report import assess
from asyncfail.readiness.verdict import STATUS_LABELS, CheckStatus
from asyncfail.review.handoff import build_review
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import REAL_RETENTIONS, RiskRun
from asyncfail.risk.report import assess as assess_risk

__all__ = [
    "checklist",
    "contract",
    "defaults",
    "engine",
    "explore",
    "lab",
    "restored",
    "review",
    "risk",
    "runs",
    "timeline",
    "trace",
]


def _args(command: str, options: str) -> argparse.Namespace:
    """``asyncfail COMMAND OPTIONS`` read by the CLI's parser."""
    words = [command, *shlex.split(options)]
    return build_parser(words).parse_args(words)


def _scenarios(options: str) -> list[Scenario]:
    """The runs ``asyncfail lab OPTIONS`` describes: under the runtime it names, else each."""
    args = _args("lab", options)
    modes = [Mode(args.mode)] if args.mode else list(SEED_MODES)
    base = scenario_of(args)  # the named runtime's (a key none is refused for durable only)
    return [base.model_copy(update={"mode": mode}) for mode in modes]


def _figures(result: LabResult, *, calls: bool) -> str:
    counts = result.counts
    parts = [
        counted(counts.attempts, "delivery attempt"),
        counted(counts.effects, "business effect"),
    ]
    if calls:
        parts += [counted(counts.tool_calls, "tool call"), counted(counts.lookups, "lookup")]
    return f"{result.mode.value}: {', '.join(parts)}, {quoted(result.status)}"


def lab(options: str) -> None:
    """Each runtime's delivery attempts, business effects, tool calls, lookups and status, as
    lesson 1 shows them."""
    for scenario in _scenarios(options):
        print(_figures(simulate(scenario), calls=True))


def runs(options: str) -> None:
    """Each runtime's delivery attempts, business effects and status, as the lessons that
    change the settings show them."""
    for scenario in _scenarios(options):
        print(_figures(simulate(scenario), calls=False))


def restored(options: str) -> None:
    """The single changes that restore the durable runtime's promise (``lab.restore``), each
    with the durable run's debits and outcome; or ``nothing to restore``."""
    (scenario,) = _scenarios(f"{options} --mode durable")
    found = restorations(scenario)
    for r in found:
        print(f"{r.change}: {counted(r.result.counts.effects, 'debit')}, {r.result.outcome}")
    if not found:
        print("nothing to restore")


def trace(options: str, mode: str, attempt: int) -> None:
    """The events of one delivery attempt in one runtime's trace, in order, with its time."""
    (scenario,) = _scenarios(f"{options} --mode {mode}")
    events = [e for e in simulate(scenario).events if e.attempt == attempt]
    print(f"delivery attempt {attempt} at {events[0].at}: {', '.join(e.kind for e in events)}")


def timeline(options: str, mode: str) -> None:
    """One runtime's events in order, a line for each instant and lane (``30 s, worker 2``)."""
    (scenario,) = _scenarios(f"{options} --mode {mode}")
    groups: list[tuple[str, list[str]]] = []
    for e in simulate(scenario).events:
        head = f"{e.at}, {lane_name(e)}"
        if groups and groups[-1][0] == head:
            groups[-1][1].append(e.kind)
        else:
            groups.append((head, [e.kind]))
    for head, kinds in groups:
        print(f"{head}: {', '.join(kinds)}")


def contract(options: str = "") -> None:
    """``asyncfail contract OPTIONS``: the record at the second request, its disposition, the
    effects and the finding, as lesson 3 labels them."""
    args = _args("contract", options)
    fields = {
        "profile": args.profile,
        "second": args.second,
        "scope": args.scope,
        "policy": args.policy,
        "boundary": args.boundary,
        "retention_seconds": args.retention,
        "delay_seconds": args.delay,
    }
    given = {k: v for k, v in fields.items() if v is not None}
    result = evaluate(ContractScenario.model_validate(given))
    print(
        f"{RECORD_LABEL}: {result.record.value}; {DISPOSITION_LABEL}: "
        f"{result.disposition.value}; {EFFECTS_LABEL}: {result.effects}. {result.finding.value}"
    )


@lru_cache(maxsize=64)
def _explored(options: str) -> Exploration:
    args = _args("explore", options)
    return run_explorer(
        Mode(args.mode), settings_of(args, "explore"), args.deliveries, args.max_faults
    )


def explore(options: str, invariant: str | None = None) -> None:
    """``asyncfail explore OPTIONS``: the plans explored and fired, then each invariant's
    violations; with ``invariant``, its smallest counterexample and the command that replays
    it."""
    found = _explored(options)
    fired = found.explored - found.unreachable
    print(
        f"{found.explored:,} plans, {fired:,} fired, {found.distinct_runs:,} distinct runs, "
        f"{counted(found.interleavings, 'interleaving')}"
    )
    for report in found.invariants:
        broken = f"broken in {report.violations:,} of {fired:,}" if report.violations else "holds"
        print(f"{report.name.value}: {broken}")
    if invariant is None:
        return
    report = next(r for r in found.invariants if r.name is Invariant(invariant))
    example = report.counterexample
    if example is None:
        print("no counterexample")
        return
    plan = plan_text(FaultPlan(injections=example.plan))
    effects = counted(example.counts.effects, "business effect")
    print(f"smallest: {plan}, {effects}, {quoted(example.status)}")
    print(f"replay: {example.command}")


def checklist(answers: dict[str, object], check: str) -> None:
    """The readiness checklist on a design given as its form's answers: the tally, then the
    status and title of one check (by its id)."""
    design, errors = design_from_answers(answers)
    if errors:
        raise ValueError(errors)
    report = assess(design)
    tally = report.tally()
    counts = ", ".join(f"{tally[s]} {STATUS_LABELS[s].lower()}" for s in CheckStatus)
    found = next(c for c in report.checks if c.id == check)
    print(f"{counts} of {len(report.checks)} checks. {STATUS_LABELS[found.status]}: {found.title}")


def review(fault: str, boundary: str | None = None, mode: str = "naive") -> None:
    """The review handoff for one fault (``mode``: the runtime under review): its evidence
    summary, or one row of its failure map."""
    handoff = build_review(Fault(fault), mode=Mode(mode))
    if boundary is None:
        print(handoff.summary())
    else:
        print(handoff.boundary_evidence(Boundary(boundary)))


@lru_cache(maxsize=64)
def _risk(options: str) -> tuple[RiskInputs, RiskRun]:
    inputs = inputs_of(_args("risk", options))
    return inputs, assess_risk(inputs)


def _p(value: float) -> str:
    return f"{value:.6f}"


def risk(options: str = "") -> None:
    """``asyncfail risk OPTIONS``: the duplicate risk at the retention with its 95% interval,
    the retention the target requires, and the exact answer where the model has one."""
    _, run = _risk(options)
    report = run.report
    d = report.duplicate
    print(
        f"duplicate: {d.count:,} of {report.trials:,}, {_p(d.probability)} "
        f"(95% interval {_p(d.low)} to {_p(d.high)})"
    )
    need = report.required
    if need.estimate is None:
        print(f"retention for a risk below {need.target:g}: none is enough")
    else:
        confident = (
            f"not shown (at least {need.trials_needed:,} trials without a duplicate needed)"
            if need.confident is None
            else approx(need.confident, up=True)
        )
        print(f"retention for a risk below {need.target:g}: {approx(need.estimate, up=True)}")
        print(f"with 95% confidence: {confident}")
    if report.exact is not None:
        p = report.exact.probability
        inside = "inside" if d.low <= p <= d.high else "outside"
        print(f"exact ({report.exact.case}): {_p(p)}, {inside} the interval")


def defaults(options: str = "") -> None:
    """``asyncfail risk OPTIONS`` read at each real system's default retention
    (``risk.report.REAL_RETENTIONS``): the estimated duplicate risk, and whether it is below
    the target."""
    _, run = _risk(options)
    target = run.report.required.target
    for name, retention in REAL_RETENTIONS:
        p = sum(1 for t in run.trials if t.at(retention).outcome == "duplicate") / len(run.trials)
        below = "below the target" if p < target else "not below the target"
        print(f"{name}'s {human(retention)}: {p:.2e}, {below}")


def engine(options: str) -> None:
    """The recorded DBOS run (``asyncfail verify --engine dbos``, as ``make engine-record`` wrote
    it in ``ground/engine_verified.py``) of the case ``asyncfail lab OPTIONS --mode M`` names:
    its delivery attempts and business effects, then DBOS's workflow record and steps."""
    (scenario,) = _scenarios(options)
    settings = scenario.settings
    case = {
        "fault": str(scenario.fault),
        "mode": scenario.mode.value,
        "key": settings.key.value,
        "record": settings.record.value,
        "receiver": settings.receiver.value,
    }
    (row,) = [r for r in json.loads(ENGINE_VERIFIED_JSON)["rows"] if r["case"] == case]
    real = row["real"]
    print(
        f"DBOS: {counted(real['attempts'], 'delivery attempt')}, "
        f"{counted(real['effects'], 'business effect')}; workflow {'; '.join(row['workflows'])}; "
        f"steps {'; '.join(row['steps'])}"
    )
