"""The CLI on good and bad input, in-process through main(argv) and as a real process."""

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from asyncfail import Fault, Mode, Scenario, simulate
from asyncfail.lab.scenario import SEED_MODES
from tests.cli_support import ROOT, run_main, run_process

SCRIPT = Path(sys.executable).parent / "asyncfail"


def test_lab_prints_one_json_document_with_the_required_fields() -> None:
    code, out, _ = run_main("lab", "--fault", "crash-after-effect", "--mode", "durable")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == [
        "fault", "plan", "mode", "deliveries", "settings", "counts", "outcome", "status",
        "assumptions",
        "broken_assumptions", "events",
    ]  # fmt: skip
    expected = simulate(Scenario(fault=Fault.CRASH_AFTER_EFFECT, mode=Mode.DURABLE))
    assert doc == expected.model_dump(mode="json")
    assert doc["counts"] == {"attempts": 2, "effects": 1, "tool_calls": 1, "lookups": 1}


def test_lab_defaults_to_the_seed_command() -> None:
    assert (
        run_main("lab")[1]
        == run_main("lab", "--fault", "crash-after-effect", "--mode", "durable")[1]
    )


def test_lab_all_lists_every_fault_and_mode() -> None:
    code, out, _ = run_main("lab", "--all")
    docs = json.loads(out)
    assert code == 0
    assert [(d["fault"], d["mode"]) for d in docs] == [
        (f.value, m.value) for f in Fault for m in SEED_MODES
    ]


def test_text_format_shows_counts_status_and_every_event() -> None:
    code, out, _ = run_main(
        "lab", "--fault", "response-lost", "--mode", "naive", "--format", "text"
    )
    assert code == 0
    assert "attempts 1   effects 2   tool calls 2" in out
    assert "status: Duplicate debit" in out
    for kind in ["ToolCalled", "DebitApplied", "TimeoutObserved", "ToolCalledAgain"]:
        assert kind in out


def test_deliveries_option_changes_the_run() -> None:
    doc = json.loads(run_main("lab", "--fault", "crash-after-effect", "--deliveries", "1")[1])
    assert doc["deliveries"] == 1 and doc["outcome"] == "unknown"


def test_schema_validates_every_lab_document() -> None:
    code, out, _ = run_main("schema")
    assert code == 0
    schema = json.loads(out)
    for doc in json.loads(run_main("lab", "--all")[1]):
        jsonschema.validate(doc, schema)
    bad = json.loads(run_main("lab")[1]) | {"outcome": "maybe"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["lab", "--fault", "explode"], ["--fault", "crash-after-effect", "response-lost"]),
        (["lab", "--mode", "fast"], ["--mode", "naive", "durable"]),
        (["lab", "--deliveries", "0"], ["--deliveries", "1 to 9"]),
        (["lab", "--deliveries", "ten"], ["--deliveries", "1 to 9"]),
        (["lab", "--deliveries", "1.5"], ["--deliveries", "1 to 9"]),
        (["lab", "--deliveries", "\u0663"], ["--deliveries", "1 to 9"]),
        (["lab", "--deliveries", " 2"], ["--deliveries", "1 to 9"]),
        (["lab", "--format", "yaml"], ["--format", "json", "text"]),
        (["lab", "--all", "--fault", "none"], ["--all", "--fault"]),
        (["lab", "--colour"], ["--colour"]),
        (["frobnicate"], ["lab", "schema"]),
        ([], ["COMMAND"]),
    ],
)
def test_bad_input_exits_2_naming_the_accepted_values(argv: list[str], names: list[str]) -> None:
    code, out, err = run_main(*argv)
    assert code == 2
    assert out == "", "nothing is written on bad input"
    for name in names:
        assert name in err
    assert "Traceback" not in err


def test_help_exits_0() -> None:
    assert run_main("lab", "--help")[0] == 0


def test_real_process_good_and_bad_input() -> None:
    good = run_process("lab", "--fault", "crash-after-effect", "--mode", "naive")
    assert good.returncode == 0 and json.loads(good.stdout)["status"] == "Duplicate debit"
    bad = run_process("lab", "--mode", "sometimes")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "choose from 'naive', 'durable'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_console_script_is_installed_and_agrees_with_python_m() -> None:
    assert SCRIPT.exists(), "the `asyncfail` console script is not installed"
    script = subprocess.run([SCRIPT, "lab", "--all"], capture_output=True, text=True, check=True)
    assert script.stdout == run_process("lab", "--all").stdout


def test_output_is_byte_identical_across_processes() -> None:
    outputs = {run_process("lab", "--all").stdout for _ in range(3)}
    assert len(outputs) == 1


def test_cli_path_does_not_import_course_dependencies() -> None:
    code = (
        "import sys, asyncfail.cli.main; asyncfail.cli.main.main(['lab']);"
        "print(sorted(m for m in ('marimo', 'pandas', 'altair', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith("[]")


def test_broken_pipe_is_not_a_traceback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "asyncfail", "lab", "--all"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the CLI writes: its write hits a closed pipe
    err = proc.stderr.read().decode()
    proc.wait()
    assert "Traceback" not in err


def test_output_is_utf8_whatever_the_locale() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asyncfail", "review"],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "·".encode() in done.stdout


def test_a_failed_write_to_stdout_is_one_line_not_a_traceback() -> None:
    with open("/dev/full", "w") as full:  # every write fails with ENOSPC
        done = subprocess.run(
            [sys.executable, "-m", "asyncfail", "lab"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == "asyncfail: error: cannot write the output: No space left on device\n"


def test_text_of_every_run_states_the_assumptions_once() -> None:
    code, out, _ = run_main("lab", "--all", "--format", "text")
    assert code == 0
    assert out.count("Assumptions:") == 1
    assert out.count("Async Failure Lab: ") == len(Fault) * len(SEED_MODES)
    for assumption in simulate(Scenario()).assumptions:
        assert out.count(assumption) == 1
    single = run_main("lab", "--format", "text")[1]
    assert single.count("Assumptions:") == 1
