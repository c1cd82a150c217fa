"""Documents handed to people: the review handoff and the replay-readiness checklist.

Owns a small document model with its Markdown and HTML renderings (``markup``, ``markdown``,
``html_page``), the review handoff (``review``, which runs the failure lab), and the readiness
checklist (``design``, ``checks``, ``report``, which run the contract experiment and never the
failure lab). It imports the ground floor, the lab and the contract wing.
"""
