"""Stress the idempotency contract

Key scope, fingerprints and the retention boundary: when is a second request a second debit?
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium", app_title="Stress the idempotency contract")


@app.cell
def _():
    import marimo as mo

    return (mo,)


@app.cell
def _():
    from asyncfail.charts import VegaLite, retention_heatmap_spec
    from asyncfail.contract import (
        MAX_SECONDS,
        PROFILES,
        BoundaryConvention,
        ContractProfile,
        ContractScenario,
        KeyScope,
        PayloadPolicy,
        SecondRequest,
        evaluate,
    )
    from asyncfail.heatmap import describe_heatmap, overview_axis
    from asyncfail.quiz import CONTRACT_QUESTION
    from asyncfail.retention_sweep import sweep_around_boundary, sweep_retention

    return (
        BoundaryConvention,
        CONTRACT_QUESTION,
        ContractProfile,
        ContractScenario,
        KeyScope,
        MAX_SECONDS,
        PROFILES,
        PayloadPolicy,
        SecondRequest,
        VegaLite,
        describe_heatmap,
        evaluate,
        overview_axis,
        retention_heatmap_spec,
        sweep_around_boundary,
        sweep_retention,
    )


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    # Stress the idempotency contract

    The Async Failure Lab assumes a **stable key** and a **retained record**. This separate
    two-request experiment relaxes those assumptions at the receiver. Request 1
    (tenant-a / order-42, 1200 minor units) is applied and its idempotency record is committed
    with the debit; request 2 arrives later. Does the receiver reuse the first result, reject the
    request, or apply a second debit?

    All requests are fictional. The experiment's inputs stay in page memory: they are never
    written to the address bar, a file, or anywhere else.
    """)
    return


@app.cell
def _(KeyScope, mo):
    scope = mo.ui.radio(
        options={
            "delivery attempt id (a new key per attempt)": KeyScope.ATTEMPT.value,
            "business operation id alone": KeyScope.OPERATION.value,
            "(tenant, business operation)": KeyScope.TENANT_OPERATION.value,
        },
        value="(tenant, business operation)",
        label=(
            "**Idempotency key scope**: "
            "a delivery attempt is not the identity of a business intent."
        ),
    )
    return (scope,)


@app.cell
def _(SecondRequest, mo):
    second = mo.ui.radio(
        options={
            "the same intent again (tenant-a / order-42 / 1200)": SecondRequest.SAME_INTENT.value,
            "same tenant and operation, amount 1500": SecondRequest.DIFFERENT_AMOUNT.value,
            "another tenant, same order (tenant-b / order-42)": SecondRequest.OTHER_TENANT.value,
            "a new operation for the same tenant (order-43)": SecondRequest.NEW_OPERATION.value,
        },
        value="the same intent again (tenant-a / order-42 / 1200)",
        label="**Second request**: fictional requests only.",
    )
    return (second,)


@app.cell
def _(ContractProfile, PROFILES, mo):
    _ietf = (
        "IETF Idempotency-Key draft "
        f"({PROFILES[ContractProfile.IETF_DRAFT].conflict.status_code})"
    )
    profile = mo.ui.dropdown(
        options={
            _ietf: ContractProfile.IETF_DRAFT.value,
            "Stripe": ContractProfile.STRIPE.value,
            "Brandur Leach's Postgres design": ContractProfile.BRANDUR_POSTGRES.value,
            "AWS Lambda Powertools": ContractProfile.POWERTOOLS.value,
        },
        value=_ietf,
        label="**Contract profile**: how a rejected reuse is reported",
    )
    return (profile,)


@app.cell
def _(PayloadPolicy, mo):
    policy = mo.ui.radio(
        options={
            "the profile's default": "default",
            "enforce: compare a canonical request fingerprint": PayloadPolicy.ENFORCE.value,
            "ignore: answer any reuse with the stored result": PayloadPolicy.IGNORE.value,
        },
        value="the profile's default",
        label="**Retained payload conflict policy**: does the receiver compare fingerprints?",
    )
    return (policy,)


@app.cell
def _(MAX_SECONDS, mo):
    retention = mo.ui.number(
        start=0,
        stop=MAX_SECONDS,
        step=1,
        value=3600,
        label="**Idempotency retention (seconds)**: only the record expires, never the effect",
    )
    return (retention,)


@app.cell
def _(MAX_SECONDS, mo):
    delay = mo.ui.number(
        start=0,
        stop=MAX_SECONDS,
        step=1,
        value=60,
        label="**Second request after (seconds)**",
    )
    return (delay,)


@app.cell
def _(BoundaryConvention, mo):
    boundary = mo.ui.radio(
        options={
            "absent at the boundary (the lab's convention)": (
                BoundaryConvention.EXPIRED_AT_BOUNDARY.value
            ),
            "still counts at its expiry second (AWS Lambda Powertools)": (
                BoundaryConvention.RETAINED_AT_BOUNDARY.value
            ),
        },
        value="absent at the boundary (the lab's convention)",
        label="**Boundary convention**: at exactly the retention boundary, is the record there?",
    )
    return (boundary,)


@app.cell
def _(boundary, delay, mo, policy, profile, retention, scope, second):
    mo.vstack(
        [
            mo.hstack([scope, second], widths="equal", align="start"),
            mo.hstack([profile, policy], widths="equal", align="start"),
            mo.hstack([retention, delay], widths="equal", align="start"),
            boundary,
        ]
    )
    return


@app.cell
def _(
    ContractScenario,
    boundary,
    delay,
    evaluate,
    policy,
    profile,
    retention,
    scope,
    second,
):
    scenario = ContractScenario(
        scope=scope.value,
        second=second.value,
        profile=profile.value,
        policy=None if policy.value == "default" else policy.value,
        retention_seconds=retention.value,
        delay_seconds=delay.value,
        boundary=boundary.value,
    )
    result = evaluate(scenario)
    return result, scenario


@app.cell
def _(mo, result):
    _rejection = (
        ""
        if result.rejection is None
        else f" ({result.rejection.status_code or 'no HTTP status'}: {result.rejection.error})"
    )
    _table = "\n".join(
        [
            "| Attempt | Business identity | Amount (minor units) "
            "| Receiver key | Fingerprint tuple |",
            "|---|---|---|---|---|",
            *(
                f"| {r.attempt} | {r.business_identity} | {r.amount_minor_units} | "
                f"`{r.receiver_key}` | `{r.fingerprint_tuple}` |"
                for r in result.requests
            ),
        ]
    )
    mo.vstack(
        [
            mo.callout(
                mo.md(f"### {result.finding.value}"),
                kind="success" if result.correct else "danger",
            ),
            mo.hstack(
                [
                    mo.stat(result.record.value, label="Record at second request", bordered=True),
                    mo.stat(
                        result.disposition.value,
                        label="Second disposition",
                        caption=_rejection.strip(" ()") or "applied, reused, or conflict",
                        bordered=True,
                    ),
                    mo.stat(result.effects, label="Total effects", bordered=True),
                    mo.stat(
                        "yes" if result.one_intent else "no",
                        label="Both requests express one intent",
                        bordered=True,
                    ),
                ],
                widths="equal",
            ),
            mo.md(f"*{result.boundary_rule}*"),
            mo.md("**Fictional requests and their receiver keys**\n\n" + _table),
        ]
    )
    return


@app.cell
def _(
    VegaLite,
    describe_heatmap,
    mo,
    overview_axis,
    retention_heatmap_spec,
    scenario,
    sweep_around_boundary,
    sweep_retention,
):
    _axis = overview_axis(scenario)
    overview = sweep_retention(scenario, _axis, _axis)
    zoom = sweep_around_boundary(scenario, radius_seconds=5)
    _zoom_title = "Zoom: the seconds around the boundary"
    mo.vstack(
        [
            mo.md(
                "## The retention boundary\n\n"
                "Every cell is the same experiment with another retention and delay; the "
                "dashed diagonal is the exact boundary (delay = retention) and the ring marks "
                "your inputs. The right-hand view zooms into the seconds around your retention, "
                "where the boundary convention decides the diagonal."
            ),
            mo.hstack(
                [
                    mo.vstack(
                        [
                            VegaLite(retention_heatmap_spec(overview, "Overview")),
                            mo.md(f"<small>{describe_heatmap(overview)}</small>"),
                        ]
                    ),
                    mo.vstack(
                        [
                            VegaLite(retention_heatmap_spec(zoom, _zoom_title)),
                            mo.md(f"<small>{describe_heatmap(zoom)}</small>"),
                        ]
                    ),
                ],
                widths="equal",
                gap=2,
            ),
        ]
    )
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(r"""
    ## What to notice

    - **Key scope is identity.** With a key per delivery attempt the receiver never finds the
      first record, so the same intent is applied twice at any delay. Dapr's activity execution
      id changes on each retry, which is exactly this mistake.
    - **A key without the tenant leaks results.** With the operation id alone, tenant-b's
      order-42 hits tenant-a's record: without a fingerprint it receives tenant-a's result. The
      IETF draft's security note asks for keys combined with client-specific attributes.
    - **Ignoring the fingerprint hides conflicts.** AWS Lambda Powertools validates payloads only
      when configured; the draft asks for 422, Stripe returns an `idempotency_error`, Brandur
      Leach's design a 409.
    - **Retention expiry does not make repeating an effect correct.** Stripe prunes keys after
      24 h, Brandur Leach's reaper after 72 h, Powertools after 3600 s by default: a retry or a
      manual replay after that is a new request. The boundary convention only decides the
      instant delay = retention exactly; the lesson is to keep records at least as long as any
      replay window.

    *Identity experiment boundaries: two sequential requests; the record and effect commit
    atomically; a canonical tuple stands in for a request fingerprint, not a production
    cryptographic hash; concurrent claims (the draft's and Stripe's 409 for a request still in
    flight) are not modeled.*
    """)
    return


@app.cell
def _(CONTRACT_QUESTION, mo):
    understanding = mo.ui.radio(
        options=list(CONTRACT_QUESTION.options),
        label=f"**Check:** {CONTRACT_QUESTION.prompt}",
    )
    return (understanding,)


@app.cell
def _(CONTRACT_QUESTION, mo, understanding):
    _feedback = CONTRACT_QUESTION.feedback(understanding.value)
    mo.vstack(
        [
            understanding,
            mo.callout(
                mo.md(_feedback),
                kind="success" if understanding.value == CONTRACT_QUESTION.answer else "info",
            )
            if _feedback
            else mo.md(""),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
