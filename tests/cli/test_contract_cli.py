"""`asyncfail contract` on good and bad input, its schema, and the lab left byte-identical."""

import io
import json
import subprocess
import sys

import jsonschema
import pytest

from asyncfail.cli.main import main
from asyncfail.contract.experiment import ContractScenario, evaluate
from asyncfail.contract.sweep import sweep_around_boundary
from asyncfail.ground.canonical import to_json
from asyncfail.lab.faults import Fault
from asyncfail.lab.results import LabResult
from asyncfail.lab.scenario import SEED_MODES
from tests.cli_support import ROOT, run_main, run_process
from tests.golden.regenerate import cli_output, golden_path

RANGE = "give a number of seconds from 0 to 2592000 (30 days)"


def lab_all_from_golden_files() -> str:
    """What `asyncfail lab --all` must print: the committed golden documents, in order."""
    documents = [
        json.loads(golden_path(fault, mode).read_text(encoding="utf-8"))
        for fault in Fault
        for mode in SEED_MODES
    ]
    return to_json(documents)


def test_contract_defaults_print_the_seeds_example() -> None:
    code, out, err = run_main("contract")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc == evaluate(ContractScenario()).model_dump(mode="json")
    assert (doc["record"], doc["disposition"], doc["effects"]) == ("retained", "reused", 1)
    assert doc["finding"] == "Same intent reused its retained result"
    assert doc["requests"][1]["receiver_key"] == '["tenant-a","order-42"]'


def test_every_option_reaches_the_scenario() -> None:
    code, out, _ = run_main(
        "contract", "--scope", "operation", "--second", "other-tenant", "--policy", "ignore",
        "--profile", "stripe", "--retention", "3600", "--delay", "3600",
        "--boundary", "retained-at-boundary",
    )  # fmt: skip
    assert code == 0
    doc = json.loads(out)
    assert doc["scenario"] == {
        "scope": "operation",
        "second": "other-tenant",
        "policy": "ignore",
        "profile": "stripe",
        "retention_seconds": 3600,
        "delay_seconds": 3600,
        "boundary": "retained-at-boundary",
    }
    assert doc["record"] == "retained" and doc["disposition"] == "reused"
    assert doc["finding"] == "One tenant received another tenant's result"
    # Stripe fixes all four knobs; each explicit value that differs is named as a departure.
    assert len(doc["departures"]) == 4


def test_conflict_reports_the_profiles_status() -> None:
    base = ["contract", "--second", "different-amount"]
    doc = json.loads(run_main(*base, "--profile", "brandur-postgres")[1])
    assert doc["disposition"] == "conflict" and doc["rejection"]["status_code"] == 409
    doc = json.loads(run_main(*base)[1])
    assert doc["rejection"] == {"status_code": 422, "error": "Idempotency-Key is already used"}


def test_powertools_profile_defaults_to_ignoring_the_payload() -> None:
    doc = json.loads(run_main("contract", "--profile", "powertools")[1])
    assert doc["settings"]["policy"] == "ignore"
    doc = json.loads(run_main("contract", "--profile", "powertools", "--policy", "enforce")[1])
    assert doc["settings"]["policy"] == "enforce"
    assert doc["departures"] == [], "Powertools lets its users turn validation on"


@pytest.mark.parametrize(
    ("text", "printed"),
    [("3600", 3600), ("0.5", 0.5), ("0", 0), ("3599.999", 3599.999), (" 60 ", 60), ("1.", 1)],
)
def test_seconds_accept_numbers_and_print_whole_seconds_as_integers(
    text: str, printed: float
) -> None:
    doc = json.loads(run_main("contract", "--delay", text)[1])
    assert doc["scenario"]["delay_seconds"] == printed
    assert type(doc["scenario"]["delay_seconds"]) is type(printed)


@pytest.mark.parametrize(
    ("argv", "names"),
    [
        (["--retention", "nan"], ["--retention", RANGE, "'nan'"]),
        (["--retention", "inf"], ["--retention", RANGE, "'inf'"]),
        (["--retention=-inf"], ["--retention", RANGE, "'-inf'"]),
        (["--retention", "-1"], ["--retention", RANGE, "'-1'"]),
        (["--delay", "abc"], ["--delay", RANGE, "'abc'"]),
        (["--delay", "2592001"], ["--delay", RANGE, "'2592001'"]),
        (["--delay", "1e999"], ["--delay", RANGE, "'1e999'", "exponent"]),
        (["--delay", "1e3"], ["--delay", RANGE, "exponent"]),
        (["--delay", "1e-400"], ["--delay", RANGE, "exponent"]),
        (["--delay", "3599.99999999999999999"], ["--delay", RANGE, "millisecond"]),
        (["--retention", "2592000.0000000001"], ["--retention", RANGE, "30 days"]),
        (["--delay", "1,5"], ["--delay", RANGE, "comma"]),
        (["--delay", "\uff13"], ["--delay", RANGE, "digits other than 0-9"]),
        (["--delay", "9" * 5000], ["--delay", RANGE, "longer than 30 days"]),
        (["--delay", ""], ["--delay", RANGE]),
        (["--delay", "\u0666\u0660"], ["--delay", RANGE]),
        (["--delay", "1_000"], ["--delay", RANGE, "'1_000'"]),
        (["--scope", "tenant"], ["--scope", "attempt", "operation", "tenant-operation"]),
        (["--second", "third"], ["--second", "same-intent", "new-operation"]),
        (["--policy", "sometimes"], ["--policy", "enforce", "ignore"]),
        (["--profile", "aws"], ["--profile", "ietf-draft", "stripe", "powertools"]),
        (["--boundary", "fuzzy"], ["--boundary", "expired-at-boundary", "retained-at-boundary"]),
        (["--colour", "red"], ["--colour"]),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_field(
    argv: list[str], names: list[str]
) -> None:
    code, out, err = run_main("contract", *argv)
    assert code == 2
    assert out == "", "nothing is written on bad input"
    assert err.count("\n") == 1, "one line"
    for name in names:
        assert name in err
    assert "Traceback" not in err


def test_real_process_good_and_bad_input() -> None:
    good = run_process("contract", "--scope", "attempt")
    assert good.returncode == 0
    assert json.loads(good.stdout)["finding"] == (
        "One intent applied twice because the key changed per attempt"
    )
    bad = run_process("contract", "--delay", "nan")
    assert bad.returncode == 2 and bad.stdout == ""
    assert "argument --delay: 'nan' is not a number; give a number of seconds" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_contract_schema_validates_every_document() -> None:
    code, out, _ = run_main("schema", "contract")
    assert code == 0
    schema = json.loads(out)
    for second in ("same-intent", "different-amount", "other-tenant", "new-operation"):
        for scope in ("attempt", "operation", "tenant-operation"):
            doc = json.loads(run_main("contract", "--second", second, "--scope", scope)[1])
            jsonschema.validate(doc, schema)
    conflict = json.loads(run_main("contract", "--second", "different-amount")[1])
    jsonschema.validate(conflict, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(conflict | {"finding": "All good"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(conflict | {"record": "maybe"}, schema)


def test_plain_schema_is_still_the_lab_schema() -> None:
    lab = to_json(LabResult.model_json_schema(mode="serialization"))
    assert run_main("schema")[1] == lab
    assert run_main("schema", "lab")[1] == lab
    assert run_main("schema", "other")[0] == 2


# --- the original lab is untouched ------------------------------------------------------------


def test_lab_all_is_byte_identical_to_the_golden_files() -> None:
    assert run_main("lab", "--all")[1] == lab_all_from_golden_files()


def test_lab_output_is_unaffected_by_running_the_contract_in_the_same_process() -> None:
    assert run_main("contract", "--scope", "operation", "--second", "other-tenant")[0] == 0
    sweep_around_boundary(ContractScenario(), radius_seconds=3)
    for fault in Fault:
        for mode in SEED_MODES:
            assert cli_output(fault, mode) == golden_path(fault, mode).read_text(encoding="utf-8")
    assert run_main("lab", "--all")[1] == lab_all_from_golden_files()


def test_lab_output_is_unaffected_in_a_fresh_process_that_ran_the_contract_first() -> None:
    code = (
        "import io, sys\n"
        "from asyncfail.cli.main import main\n"
        "from asyncfail.contract.experiment import ContractScenario\n"
        "from asyncfail.contract.sweep import sweep_retention\n"
        "sweep_retention(ContractScenario(), range(50), range(50))\n"
        "assert main(['contract', '--profile', 'powertools'], stdout=io.StringIO()) == 0\n"
        "sys.exit(main(['lab', '--all']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout == lab_all_from_golden_files()


def loaded_by(command: str) -> list[str]:
    """The asyncfail modules a process imports to run ``asyncfail COMMAND``."""
    code = (
        "import io, sys, asyncfail.cli.main as cli;"
        f"cli.main([{command!r}], stdout=io.StringIO());"
        "print(' '.join(m for m in sys.modules if m.startswith('asyncfail.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_lab_command_imports_only_the_lab_and_its_own_subcommand() -> None:
    loaded = loaded_by("lab")
    assert "asyncfail.cli.lab" in loaded
    assert sorted(m for m in loaded if m.startswith("asyncfail.cli.")) == [
        "asyncfail.cli.lab",
        "asyncfail.cli.main",
        "asyncfail.cli.output",
        "asyncfail.cli.settings_options",
    ]
    for wing in ("contract", "handoff", "charts", "course"):
        assert not [m for m in loaded if m.startswith(f"asyncfail.{wing}")], wing


def test_contract_command_does_not_import_course_dependencies() -> None:
    code = (
        "import io, sys, asyncfail.cli.main as cli; cli.main(['contract'], stdout=io.StringIO());"
        "print(sorted(m for m in ('marimo', 'pandas', 'altair', 'numpy') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_output_is_written_whole_or_not_at_all() -> None:
    out = io.StringIO()
    assert main(["contract", "--delay", "-5"], stdout=out) == 2
    assert out.getvalue() == ""


def test_text_format_says_what_the_json_says() -> None:
    argv = ["contract", "--profile", "stripe", "--retention", "3600", "--delay", "3600"]
    code, text, _ = run_main(*argv, "--format", "text")
    assert code == 0
    doc = json.loads(run_main(*argv)[1])
    assert f"finding: {doc['finding']} (wrong)" in text
    assert f"record at second request: {doc['record']}" in text
    assert f"total effects: {doc['effects']}" in text
    assert [line for line in text.splitlines() if line.startswith("departs: ")] == [
        f"departs: {d}" for d in doc["departures"]
    ]
    for row in doc["requests"]:
        assert row["receiver_key"] in text and row["fingerprint_tuple"] in text
    assert doc["boundary_rule"] in text
