"""The replay-readiness checklist: a design described by its answers, assessed check by check.

Owns the design and its questions (``design``), what a check says (``verdict``), the checks
(``checks``, which run the contract experiment and never the failure lab) and the report
(``report``). It imports the ground floor, the contract wing and the document model.
"""
