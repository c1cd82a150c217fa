"""``asyncfail verify --engine dbos``: a real DBOS application crashed for real, beside the model.

The default DBOS matrix agrees and shows what the issue says (hand-written rows); an application
broken on purpose (the key left out, the lookup skipped) is caught and its rows named; nothing is
left behind; bad input is one line; a second engine is one module (a stand-in engine here).
"""

import gc
import importlib.metadata
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from asyncfail.cli import engine_verify
from asyncfail.engines import dbos_engine, registry
from asyncfail.engines.adapter import EngineRun
from asyncfail.engines.dbos_engine import APP_SCRIPT, DbosEngine
from asyncfail.engines.verification import EngineRow, EngineVerification
from asyncfail.ground import engine_verified
from asyncfail.lab.faults import Fault
from asyncfail.lab.scenario import Mode, Scenario
from asyncfail.lab.settings import KeyStability, LabSettings, ReceiverContract, StepRetries
from asyncfail.lab.simulation import simulate
from asyncfail.reference import worker
from asyncfail.reference.supervisor import Processes, run_case
from asyncfail.reference.verification import Case, predicted
from tests.cli_support import ROOT, run_main, sigint_default
from tests.reference.test_verify import children, open_files, processes_mentioning

Matrix = tuple[int, dict[str, Any], str]


@pytest.fixture(scope="module")
def dbos_matrix() -> Matrix:
    """``asyncfail verify --engine dbos``: (exit status, JSON document, stderr)."""
    code, out, err = run_main("verify", "--engine", "dbos")
    return code, json.loads(out) if out else {}, err


def rows_by_name(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {Case.model_validate(r["case"]).name: r for r in doc["rows"]}


SUPPORTED = {
    ("checkpoint", "none", "lookup-only"),
    ("checkpoint", "none", "dedupe"),
    ("checkpoint", "stable", "lookup-only"),
    ("checkpoint", "stable", "dedupe"),
    ("durable", "stable", "lookup-only"),
    ("durable", "per-attempt", "lookup-only"),
}


def test_the_dbos_matrix_runs_every_supported_case_and_every_case_agrees(
    dbos_matrix: Matrix,
) -> None:
    code, doc, err = dbos_matrix
    assert (code, err) == (0, "")
    assert doc["engine"] == "dbos" and doc["version"] == importlib.metadata.version("dbos")
    assert len(doc["rows"]) == len(Fault) * len(SUPPORTED)
    combos = {(r["case"]["mode"], r["case"]["key"], r["case"]["receiver"]) for r in doc["rows"]}
    assert combos == SUPPORTED
    assert doc["agrees"] is True and doc["disagreements"] == []


# Written by hand from the issue and the engine's docs: (effects, tool calls, lookups, how each
# delivery's process ended, the workflow's record, the steps DBOS recorded).
KILLED_THEN_RECOVERED = ["SIGKILL", "acknowledged"]
RECOVERED = ["SUCCESS, started 2 times"]
ONE_STEP = ["1 debit_step: output"]
TWO_STEPS = ["1 intent_step: output", "2 dispatch_step: output"]
EXPECTED = {
    # the seed's crash in a plain step: DBOS recovers the workflow and runs the step again
    "crash-after-effect checkpoint none atomic lookup-only": (2, 2, 0, KILLED_THEN_RECOVERED),
    "crash-after-effect checkpoint stable atomic lookup-only": (2, 2, 0, KILLED_THEN_RECOVERED),
    # ... with the workflow id and step id as its key, a deduplicating receiver answers it
    "crash-after-effect checkpoint stable atomic dedupe": (1, 2, 0, KILLED_THEN_RECOVERED),
    # after the checkpoint: the recovery reuses the step's output
    "crash-after-record checkpoint none atomic lookup-only": (1, 1, 0, KILLED_THEN_RECOVERED),
    # the course's pattern on DBOS: the intent step says the outcome is unknown, the lookup finds it
    "crash-after-effect durable stable atomic lookup-only": (1, 1, 1, KILLED_THEN_RECOVERED),
    "crash-after-effect durable per-attempt atomic lookup-only": (2, 2, 1, KILLED_THEN_RECOVERED),
    # DBOS's step retry (allowed by the app) repeats the request in the same process
    "response-lost checkpoint none atomic lookup-only": (2, 2, 0, ["acknowledged"]),
    "response-lost checkpoint stable atomic dedupe": (1, 2, 0, ["acknowledged"]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_dbos_runs_show_what_the_issue_says(dbos_matrix: Matrix, name: str) -> None:
    row = rows_by_name(dbos_matrix[1])[name]
    effects, calls, lookups, workers = EXPECTED[name]
    real = row["real"]
    assert (real["effects"], real["tool_calls"], real["lookups"]) == (effects, calls, lookups)
    assert real["workers"] == workers
    assert row["workflows"] == (RECOVERED if len(workers) == 2 else ["SUCCESS, started 1 time"])
    assert row["steps"] == (TWO_STEPS if row["case"]["mode"] == "durable" else ONE_STEP)
    timeout = row["case"]["fault"] == "response-lost"
    assert (row["note"] is not None) == timeout
    if timeout:
        assert "off by default" in row["note"]


def test_the_schema_describes_the_document(dbos_matrix: Matrix) -> None:
    code, out, _ = run_main("schema", "engine-verify")
    assert code == 0
    jsonschema.validate(dbos_matrix[1], json.loads(out))


def test_the_model_column_is_the_models_own_prediction(dbos_matrix: Matrix) -> None:
    for row in dbos_matrix[1]["rows"]:
        c = row["case"]
        settings = LabSettings(key=c["key"], record=c["record"], receiver=c["receiver"])
        result = simulate(Scenario(fault=c["fault"], mode=c["mode"], settings=settings))
        counts = result.counts
        model = row["model"]
        assert (model["effects"], model["tool_calls"], model["lookups"]) == (
            counts.effects,
            counts.tool_calls,
            counts.lookups,
        )
        assert model["outcome"] == result.outcome


# --- DBOS's own step default: no retries -----------------------------------------------------

# Written by hand from DBOS's docs and source (``retries_allowed=False`` by default; a step that
# raises fails its workflow, and DBOS recovers only pending workflows): (attempts, effects,
# tool calls, outcome) of the plain step, whose request or reply is lost.
WITHOUT_RETRIES = {
    "request-lost": (3, 0, 1, "lost"),
    "response-lost": (3, 1, 1, "unknown"),  # debited, and nothing that survived knows it
}


@pytest.mark.parametrize("fault", sorted(WITHOUT_RETRIES))
def test_dbos_defaults_fail_the_workflow_for_good_as_the_model_with_step_retries_off(
    fault: str,
) -> None:
    argv = ["--fault", fault, "--step-retries", "off", "--key", "none", "--receiver", "dedupe"]
    code, out, err = run_main("verify", "--engine", "dbos", *argv)
    assert (code, err) == (0, "")
    (row,) = json.loads(out)["rows"]
    assert row["case"]["step_retries"] == "off" and row["agrees"] is True
    attempts, effects, calls, outcome = WITHOUT_RETRIES[fault]
    real = row["real"]
    assert (real["attempts"], real["effects"], real["tool_calls"]) == (attempts, effects, calls)
    assert real["outcome"] == outcome and real["workers"] == ["released"] * 3
    assert row["workflows"] == ["ERROR, started 1 time"]
    assert row["steps"] == ["1 debit_step_without_retries: error"]
    assert row["note"] is None, "DBOS's default, and the model's setting: nothing to explain"


def test_the_default_matrix_leaves_the_step_retry_setting_out_of_its_document(
    dbos_matrix: Matrix,
) -> None:
    for row in dbos_matrix[1]["rows"]:
        assert "step_retries" not in row["case"]
        if row["note"] is not None:
            assert "--step-retries off" in row["note"]


# --- an application broken on purpose ---------------------------------------------------------

FLAWS = {
    # the step sends no key, whatever the setting: the deduplicating receiver cannot help
    "no-key": (
        "    entry = ME.debit(key)\n    if entry is None:\n        raise NoReply",
        "    entry = ME.debit(None)\n    if entry is None:\n        raise NoReply",
    ),
    # the durable dispatch never looks up: an unknown outcome is called again
    "no-lookup": ("    entry = ME.lookup(key) if unknown else None", "    entry = None"),
    # the step said to keep DBOS's defaults retries anyway: a lost request is sent again
    "retries-anyway": (
        "@DBOS.step()  # DBOS's defaults",
        "@DBOS.step(retries_allowed=True, max_attempts=CALLS_PER_DELIVERY)",
    ),
}
ARGV = {
    "no-key": ["--fault", "crash-after-effect"],
    "no-lookup": ["--fault", "crash-after-effect"],
    "retries-anyway": ["--fault", "request-lost", "--step-retries", "off", "--key", "stable"],
}
NAMED = {
    "no-key": ["crash-after-effect checkpoint stable atomic dedupe"],
    "no-lookup": [
        "crash-after-effect durable stable atomic lookup-only",
        "crash-after-effect durable per-attempt atomic lookup-only",
    ],
    "retries-anyway": [
        "request-lost checkpoint stable atomic lookup-only step-retries-off",
        "request-lost checkpoint stable atomic dedupe step-retries-off",
    ],
}


def flawed_app(flaw: str, folder: Path) -> Path:
    before, after = FLAWS[flaw]
    source = APP_SCRIPT.read_text(encoding="utf-8")
    assert source.count(before) == 1, flaw
    path = folder / "dbos_app.py"
    path.write_text(source.replace(before, after), encoding="utf-8")
    return path


@pytest.mark.parametrize("flaw", sorted(FLAWS))
def test_an_application_broken_on_purpose_disagrees_and_is_named(
    flaw: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry.ENGINES, "dbos", DbosEngine(app=flawed_app(flaw, tmp_path)))
    code, out, err = run_main("verify", "--engine", "dbos", *ARGV[flaw])
    assert code == 1
    doc = json.loads(out)
    assert doc["disagreements"] == NAMED[flaw]
    assert err == (
        f"asyncfail verify: {len(NAMED[flaw])} of {len(doc['rows'])} cases disagree with the "
        f"model: {'; '.join(NAMED[flaw])}\n"
    )
    # a real second debit (or a lookup never made) that the model rules out
    for name in NAMED[flaw]:
        row = rows_by_name(doc)[name]
        assert row["real"] != row["model"]


# --- nothing left behind; --keep --------------------------------------------------------------

ONE_CASE = ("--fault", "crash-after-effect", "--mode", "checkpoint", "--key", "none")


def test_every_process_is_reaped_and_every_file_and_socket_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gc.collect()
    before_children, before_fds = children(), open_files()
    code, out, err = run_main("verify", "--engine", "dbos", *ONE_CASE, "--format", "text")
    assert (code, err) == (0, "")
    assert "2 cases: every one agrees with the model" in out
    assert "dbos: workflow SUCCESS, started 2 times; steps 1 debit_step: output" in out
    assert list(tmp_path.iterdir()) == [], "the temporary folder is removed"
    assert children() <= before_children
    assert processes_mentioning(str(tmp_path)) == set()
    gc.collect()
    assert open_files() - before_fds == set(), "a socket, pipe or database is open"


def test_keep_leaves_the_ledger_and_the_dbos_system_database(tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    argv = [*ONE_CASE, "--receiver", "dedupe", "--keep", str(keep)]
    code, out, err = run_main("verify", "--engine", "dbos", *argv)
    assert code == 0, (out, err)
    case = keep / "crash-after-effect.checkpoint.none.atomic.dedupe"
    # A try with a slow reply is run again beside it (.try-2): the first stays, as it was.
    assert sorted(p.name for p in keep.iterdir())[0] == case.name
    assert {p.name for p in keep.iterdir()} <= {
        case.name,
        *(f"{case.name}.try-{n}" for n in (2, 3)),
    }
    names = {p.name for p in case.iterdir()}
    assert {"dbos.sqlite", "receiver.sqlite", "app-1.stderr", "app-2.stderr"} <= names
    assert "Recovering 1 workflows" in (case / "app-2.stderr").read_text()


def test_a_timeout_no_injection_explains_is_inconclusive_never_a_disagreement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A timeout of 0 leaves every debit without a reply: the machine's doing, not DBOS's.
    monkeypatch.setitem(registry.ENGINES, "dbos", DbosEngine(timeout=0))
    keep = tmp_path / "kept"
    case = ("--fault", "none", "--mode", "checkpoint", "--key", "stable", "--receiver", "dedupe")
    argv = [*case, "--deliveries", "1", "--keep", str(keep), "--format", "text"]
    code, out, err = run_main("verify", "--engine", "dbos", *argv)
    assert (code, err) == (0, ""), out
    name = "none checkpoint stable atomic dedupe"
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("none "))
    assert row.split()[-1] == "inconclusive"
    # the model: one call, one effect; for real no call reached the receiver, and the
    # workflow failed, releasing the delivery
    assert " ".join(row.split()[4:]) == ("1 1 1 0 exactly-once 1 0 0 0 lost released inconclusive")
    assert lines[-2:] == [
        "1 case: none disagrees with the model",
        "1 inconclusive (a call timed out in every try with no injected fault to explain it; "
        f"run again on a quieter machine): {name}",
    ]
    folder = name.replace(" ", ".")
    tries = [folder, f"{folder}.try-2", f"{folder}.try-3"]
    assert sorted(p.name for p in keep.iterdir()) == tries
    for each in tries:
        log = (keep / each / "app-1.stderr").read_text()
        # the step's two attempts, each without a reply, said in the reference worker's words
        assert log.count(f"{worker.NO_REPLY} POST /debit") == 2, each


# --- bad input, and an engine that cannot run ---------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--engine", "dbos", "--mode", "naive"],
            "argument --mode: the dbos engine runs checkpoint and durable",
        ),
        (
            ["--engine", "dbos", "--record", "separate"],
            "argument --record: the dbos engine runs atomic only",
        ),
        (
            ["--engine", "dbos", "--mode", "durable", "--receiver", "dedupe"],
            "the dbos engine runs no case with these options",
        ),
        (["--engine", "dbos", "--retention", "30"], "argument --retention: the reference "),
        (
            ["--mode", "checkpoint"],
            "the checkpoint runtime, --key none and --step-retries run on an engine",
        ),
        (
            ["--key", "none"],
            "the checkpoint runtime, --key none and --step-retries run on an engine",
        ),
        (["--engine", "temporal"], "argument --engine: invalid choice: 'temporal'"),
        (
            ["--engine", "dbos", "--mode", "durable", "--step-retries", "off"],
            "the dbos engine runs no case with these options",
        ),
        (["--step-retries", "off"], "--step-retries run on an engine (--engine dbos)"),
        (["--engine", "dbos", "--step-retries", "twice"], "argument --step-retries: invalid"),
    ],
)
def test_a_setting_the_engine_does_not_run_is_exit_2(argv: list[str], message: str) -> None:
    code, out, err = run_main("verify", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("asyncfail verify: error: ") and message in err, err
    assert err.count("\n") == 1 or "usage" in err


def test_an_engine_not_installed_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dbos_engine, "PACKAGE", "asyncfail-no-such-package")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run_main("verify", "--engine", "dbos", *ONE_CASE)
    assert (code, out) == (1, "")
    assert err == (
        "asyncfail verify: error: the dbos engine needs the dbos package: "
        "pip install 'asyncfail[engines]'\n"
    )
    assert list(tmp_path.iterdir()) == []


# --- a second engine is one module ----------------------------------------------------------------


class StandIn:
    """An engine in a dozen lines: the reference implementation's naive worker, as if it were
    an engine (what a second engine's module supplies)."""

    name = "stand-in"

    def version(self) -> str:
        return "0"

    def modes(self) -> tuple[Mode, ...]:
        return (Mode.NAIVE,)

    def keys(self, mode: Mode) -> tuple[KeyStability, ...]:
        return (KeyStability.STABLE,)

    def receivers(self, mode: Mode) -> tuple[ReceiverContract, ...]:
        return (ReceiverContract.LOOKUP_ONLY,)

    def step_retries(self, mode: Mode) -> tuple[StepRetries, ...]:
        return (StepRetries.ONCE,)

    def note(self, case: Case) -> str | None:
        return None

    def run_case(
        self, case: Case, deliveries: int, directory: Path, processes: Processes
    ) -> EngineRun:
        real = run_case(case.scenario(deliveries), directory, processes)
        return EngineRun(real=real, workflows=(), steps=())


def test_a_second_engine_is_one_module_registered_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.ENGINES, "stand-in", StandIn())
    code, out, err = run_main("verify", "--engine", "stand-in", "--fault", "response-lost")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert [r["case"]["mode"] for r in doc["rows"]] == ["naive"]
    assert doc["rows"][0]["real"]["effects"] == 2  # the naive loop's blind retry, for real
    # what the CLI says an engine runs comes from that engine (it once described DBOS's)
    code, out, err = run_main("verify", "--engine", "stand-in", "--receiver", "dedupe")
    assert (code, out) == (2, "")
    assert err == (
        "asyncfail verify: error: the stand-in engine runs no case with these options (naive: "
        "--key stable, --receiver lookup-only, --step-retries once)\n"
    )


# --- Ctrl-C; the recorded table -------------------------------------------------------------------


def test_ctrl_c_ends_every_dbos_process_and_removes_every_file(tmp_path: Path) -> None:
    run = subprocess.Popen(
        [sys.executable, "-m", "asyncfail", "verify", "--engine", "dbos"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path)},
        preexec_fn=sigint_default,
    )
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("asyncfail-verify-*/*/dbos.sqlite")):
        assert time.monotonic() < deadline and run.poll() is None, "no DBOS process started"
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert (run.returncode, out, err) == (130, "", "asyncfail: interrupted\n")
    assert list(tmp_path.iterdir()) == []
    assert processes_mentioning(str(tmp_path)) == set()


def test_the_recorded_table_the_lesson_shows_is_what_a_fresh_run_finds(
    dbos_matrix: Matrix,
) -> None:
    recorded = json.loads(engine_verified.ENGINE_VERIFIED_JSON)
    fresh = dbos_matrix[1]
    assert recorded["command"] == "asyncfail verify --engine dbos"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", recorded["recorded"])
    assert recorded["platform"].startswith(("Linux", "Darwin"))
    assert (recorded["engine"], recorded["version"]) == (fresh["engine"], fresh["version"])
    assert recorded["rows"] == fresh["rows"]


def test_the_text_table_says_when_the_step_may_not_retry() -> None:
    case = Case(fault=Fault.REQUEST_LOST, mode=Mode.CHECKPOINT, step_retries=StepRetries.OFF)
    figures = predicted(case, 3)
    row = EngineRow(case=case, model=figures, real=figures, workflows=(), steps=())
    off = EngineVerification(engine="dbos", version="0", deliveries=3, rows=(row,))
    text = engine_verify.render_text(off)
    assert text.splitlines()[2] == (
        "--step-retries off: the checkpoint step may not retry a call without a reply (DBOS's "
        "default); in the engine and in the model"
    )
    default = Case(fault=Fault.NONE, mode=Mode.CHECKPOINT)
    once = off.model_copy(update={"rows": (row.model_copy(update={"case": default}),)})
    assert "--step-retries" not in engine_verify.render_text(once)
