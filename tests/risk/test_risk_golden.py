"""A seed means the same report, byte for byte: the JSON of settings that cover every path the
trials take (jitter, each runtime, replay or none, retention and boundary, outages, two workers
with pauses, a named fault, the heavy setting), pinned as SHA-256 digests of what the code gave
before the trials were made faster (issue 21). A change here is a change to what a seed means,
and is announced as one (``risk.draws``); a speed-up must leave every digest as it is.

To see a case's document: ``asyncfail risk`` with the case's options, or ``document(CASES[i])``.
"""

import hashlib

import pytest

from asyncfail.ground.canonical import to_json
from asyncfail.risk.inputs import RiskInputs
from asyncfail.risk.report import assess

CASES: list[tuple[dict[str, object], str]] = [
    ({"trials": 3000},
     "ae7df6f80c4638b244fa3ed25b517961dd8501af26de6209d6b27db1390b9eb7"),
    ({"trials": 3000, "jitter": "full", "crash_probability": 0.2},
     "35097d190eb49fbfb960aa8fe9611dfac07354549bcb55e62ebba2ddbbf2e04c"),
    ({"trials": 1000, "seed": 7, "jitter": "equal", "deliveries": 5, "crash_probability": 0.3,
      "loss_probability": 0.1, "settings": {"retention": "60"}},
     "7ec614a1fb1e41c3d1169b8c3062aefdba5834b53f943aeed92fb8a94ed7b2e1"),
    ({"trials": 2000, "seed": 3, "mode": "naive", "jitter": "full", "crash_probability": 0.2,
      "settings": {"retention": "20"}},
     "6e45dc96f46c0ea1919e1c5a79ed18a35fdc034031c19a08c8e31f3838a0dc9e"),
    ({"trials": 2000, "seed": 4, "mode": "checkpoint", "jitter": "full", "deliveries": 4,
      "crash_probability": 0.15, "loss_probability": 0.05, "settings": {"retention": "45"}},
     "905fa820b44ed1259b4c3e907f6eb83ef3e2b5174a86d6e8331f44dd127149fd"),
    ({"trials": 1000, "deliveries": 1, "fault": "crash-after-effect", "crash_probability": 0,
      "settings": {"retention": "172800"}},
     "681e3770297d776387c5ab72f7cfd76e211795d5a4e8bd1794de248fec7e9e71"),
    ({"trials": 2000, "seed": 11, "jitter": "full", "deliveries": 3, "crash_probability": 0.1,
      "outage_probability": 0.2, "replay_median": None,
      "settings": {"retention": "40", "on_lookup_outage": "fail-open",
                   "on_store_outage": "fail-open"}},
     "f9f082ec21bc4d7444a4f564b68e138cd8bcb1d5dee4263da914814f874710b9"),
    ({"trials": 2000, "seed": 5, "jitter": "full", "deliveries": 3, "crash_probability": 0.1,
      "pause_probability": 0.2, "settings": {"workers": 2, "claim": "lease",
                                             "fencing": "token", "retention": "90"}},
     "3208dbf277012798cbc9ace90d90925d34f484c4650f8fdba3e9c1a98daca2b2"),
    ({"trials": 2000, "seed": 6, "jitter": "full", "deliveries": 3, "crash_probability": 0.1,
      "pause_probability": 0.3, "settings": {"workers": 1, "retention": "75",
                                             "client_timeout": "20"}},
     "4d0bac30e50587aeba781a458ee1d71cbcc434aacaaebe1f603241e4f6b81840"),
    ({"trials": 2000, "seed": 8, "jitter": "full", "deliveries": 4, "crash_probability": 0.25,
      "replay_spread": 2.5, "settings": {"receiver": "dedupe", "record": "separate",
                                         "boundary": "retained-at-boundary",
                                         "retention": "30", "schedule": "temporal"}},
     "29420dccaa0b1ae6cd73b9c9f64dad2400a298926d61a71cc7fe5fb5f5737465"),
    ({"trials": 2000, "seed": 9, "jitter": "equal", "deliveries": 3, "crash_probability": 0.2,
      "settings": {"key": "per-attempt", "retention": "15", "store": "outage"}},
     "c7c26253914112e420bb751e1d8e8dd8360c784ce0eb774aa221334dd76370a7"),
    ({"trials": 1000, "seed": 12, "crash_probability": 0.2, "deliveries": 3,
      "settings": {"retention": "30", "boundary": "retained-at-boundary"}},
     "14c4a88c686f053026f5ec677a7b1cc1e66820c675af4708ac64262e7071a7f0"),
    ({"trials": 1000, "seed": 12, "crash_probability": 0.2, "deliveries": 3,
      "settings": {"retention": "30", "receiver": "dedupe"}},
     "36592ed0aef4d6dda38bdccc034ecc9a42507a619482219b99ae917ec2dca9b0"),
    ({"trials": 400, "seed": 10, "jitter": "full", "deliveries": 9,
      "crash_probability": 0.5},
     "bb17df05f8a1350317290fdfa312ff1136ed649d2bbe047b3bf445a766a5698c"),
]  # fmt: skip


def document(fields: dict[str, object]) -> str:
    return to_json(assess(RiskInputs.model_validate(fields)).report.model_dump(mode="json"))


@pytest.mark.parametrize(("fields", "digest"), CASES)
def test_a_seed_gives_the_same_report(fields: dict[str, object], digest: str) -> None:
    assert hashlib.sha256(document(fields).encode()).hexdigest() == digest
