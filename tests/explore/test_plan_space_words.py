"""What ``explore.plans`` says of its own bound is what it enumerates: the points, the plans."""

import ast
import itertools
import re
from math import comb
from pathlib import Path

from asyncfail.explore import plans
from asyncfail.explore.plans import MAX_FAULTS, plans_up_to
from asyncfail.lab.faults import FaultPoint
from asyncfail.lab.settings import LabSettings


def docstring_of(name: str) -> str:
    """The string literal right after the module-level assignment to ``name``."""
    body = ast.parse(Path(plans.__file__).read_text(encoding="utf-8")).body
    for node, after in itertools.pairwise(body):
        if isinstance(node, ast.AnnAssign | ast.Assign) and name in ast.unparse(node).split()[0]:
            assert isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
            return str(after.value.value)
    raise AssertionError(f"no docstring for {name}")


def test_max_faults_says_how_many_points_and_plans_there_are() -> None:
    text = docstring_of("MAX_FAULTS").replace("\n", " ")
    found = re.search(r"(\d+) over (\d+) points and (\d+) deliveries is ([\d,]+) plans", text)
    assert found, text
    faults, points, deliveries, count = found.groups()
    assert int(faults) == MAX_FAULTS
    assert int(points) == len(FaultPoint)
    n = len(FaultPoint) * int(deliveries)
    expected = sum(comb(n, k) for k in range(MAX_FAULTS + 1))
    assert int(count.replace(",", "")) == expected
    enumerated = plans_up_to(plans.injection_space(LabSettings(), int(deliveries)), MAX_FAULTS)
    assert len(list(enumerated)) == expected
