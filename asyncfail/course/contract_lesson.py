"""The lesson that stresses the idempotency contract: every word the lesson shows, and its defaults.

The controls' options are the contract wing's own words (``contract.terms``,
``contract.requests``); each knob's control starts at the value the chosen profile's system sets
(``contract.settings.resolve``), so picking a profile sets every knob it fixes, and changing one
afterwards is reported as a departure from that system. With the default profile the controls
are the seed's example, as ``ContractScenario()`` is.
"""

from typing import Final

from asyncfail.contract.experiment import ContractResult, ContractScenario
from asyncfail.contract.profiles import PROFILES
from asyncfail.contract.settings import ContractSettings, resolve
from asyncfail.contract.terms import (
    DEFAULT_DELAY,
    PROFILE_NAMES,
    REQUESTS_HEADER,
    REQUESTS_TITLE,
    ContractProfile,
)
from asyncfail.document.markdown import md_table
from asyncfail.document.markup import Table
from asyncfail.ground.durations import duration_error, parse_duration

INTRO: Final = """\
The Async Failure Lab assumes a **stable key** and a **retained record**. This separate
two-request experiment relaxes those assumptions at the receiver. Request 1 (tenant-a /
order-42, 1200 minor units) is applied and its idempotency record is committed with the debit;
request 2 arrives later. Does the receiver reuse the first result, reject the request, or apply
a second debit?

All requests are fictional. The experiment's inputs stay in page memory: they are never written
to the address bar, a file, or anywhere else.
"""

DEFAULTS: Final = ContractScenario()
"""The seed's example row: the profile, second request and delay controls start here."""

SCOPE_LABEL: Final = (
    "**Idempotency key scope**: a delivery attempt is not the identity of a business intent."
)
SECOND_LABEL: Final = "**Second request**: fictional requests only."
PROFILE_LABEL: Final = "**Contract profile**: how a rejected reuse is reported"
POLICY_LABEL: Final = (
    "**Retained payload conflict policy**: does the receiver compare fingerprints?"
)
RETENTION_LABEL: Final = (
    "**Idempotency retention (seconds)**: only the record expires, never the effect"
)
DELAY_LABEL: Final = "**Second request after (seconds)**"
SECONDS_PLACEHOLDER: Final = "seconds, e.g. 3600 or 0.5"
BOUNDARY_LABEL: Final = (
    "**Boundary convention**: at exactly the retention boundary, is the record there?"
)
DEPARTURES_TITLE: Final = "**Not what {profile} does:**"
INPUT_NOT_READ: Final = "**Not read; the profile's value is used.**"

DISPOSITION_CAPTION: Final = "applied, reused, or conflict"
YES_NO: Final = ("no", "yes")
"""How a yes/no figure is shown, indexed by the bool."""

BOUNDARY_TEXT: Final = (
    "## The retention boundary\n\n"
    "Every cell is the same experiment with another retention and delay; the dashed diagonal is "
    "the exact boundary (delay = retention) and the ring marks your inputs. The right-hand view "
    "zooms into the seconds around your retention, where the boundary convention decides the "
    "diagonal."
)
OVERVIEW_TITLE: Final = "Overview"
ZOOM_TITLE: Final = "Zoom: the seconds around the boundary"
ZOOM_RADIUS_SECONDS: Final = 5

NOTICE: Final = """\
## What to notice

- **Key scope is identity.** With a key per delivery attempt the receiver never finds the first
  record, so the same intent is applied twice at any delay. Dapr's activity execution id changes
  on each retry, which is exactly this mistake.
- **A key without the tenant leaks results.** With the operation id alone, tenant-b's order-42
  hits tenant-a's record: without a fingerprint it receives tenant-a's result. The IETF draft's
  security note asks for keys combined with client-specific attributes.
- **Ignoring the fingerprint hides conflicts.** AWS Lambda Powertools validates payloads only
  when configured; the draft asks for 422, Stripe returns an `idempotency_error`, Brandur
  Leach's design a 409.
- **Retention expiry does not make repeating an effect correct.** Stripe prunes keys after
  24 h, Brandur Leach's reaper after 72 h, Powertools after 3600 s by default: a retry or a
  manual replay after that is a new request. The boundary convention only decides the instant
  delay = retention exactly: under the seed's convention records must outlive every replay
  window (strictly longer); under Powertools' and Brandur Leach's, equal is enough.

*Identity experiment boundaries: two sequential requests; the record and effect commit
atomically; a canonical tuple stands in for a request fingerprint, not a production
cryptographic hash; concurrent claims (the draft's and Stripe's 409 for a request still in
flight) are not modeled.*
"""


def profile_label(profile: ContractProfile) -> str:
    """A profile as the lesson offers it: its name, and the HTTP status of its conflict."""
    status = PROFILES[profile].conflict.status_code
    return PROFILE_NAMES[profile] + ("" if status is None else f" ({status})")


def rejection_caption(result: ContractResult) -> str:
    """Under the disposition: the profile's report of a conflict, or what the figure can be."""
    if result.rejection is None:
        return DISPOSITION_CAPTION
    return f"{result.rejection.status_code or 'no HTTP status'}: {result.rejection.error}"


def requests_table(result: ContractResult) -> str:
    """The seed's table of the two requests, their receiver keys and fingerprints (Markdown)."""
    rows = tuple(
        (
            (str(r.attempt),),
            (r.business_identity,),
            (str(r.amount_minor_units),),
            (r.receiver_key,),
            (r.fingerprint_tuple,),
        )
        for r in result.requests
    )
    return f"**{REQUESTS_TITLE}**\n\n{md_table(Table(header=REQUESTS_HEADER, rows=rows))}"


def controls_for(profile: ContractProfile) -> ContractSettings:
    """Where each knob's control starts once ``profile`` is chosen: the settings in force with
    nothing explicit."""
    return resolve(profile, scope=None, policy=None, retention=None, boundary=None)


def seconds_text(settings: ContractSettings) -> str:
    """The retention as its text field starts: ``3600``."""
    return str(settings.retention.json_number)


DELAY_TEXT: Final = str(DEFAULT_DELAY.json_number)
"""The delay as its text field starts."""


def scenario_from_controls(
    controls: dict[str, str], retention_text: str, delay_text: str
) -> tuple[ContractScenario, tuple[str, ...]]:
    """The scenario the controls describe, and a line for each duration that cannot be read.

    ``controls`` holds the choice controls' values (profile, second, scope, policy, boundary),
    every knob explicit, so a value that differs from what the profile's system fixes shows as
    a departure. A duration that cannot be read is reported (``duration_error``) and replaced:
    the retention by the profile's, the delay by the default delay.
    """
    errors: list[str] = []
    durations: dict[str, object] = {}
    for field, label, text in (
        ("retention_seconds", "Retention", retention_text),
        ("delay_seconds", "Delay", delay_text),
    ):
        try:
            durations[field] = parse_duration(text)
        except ValueError as error:
            errors.append(duration_error(label, text, str(error)))
    return ContractScenario.model_validate(controls | durations), tuple(errors)
