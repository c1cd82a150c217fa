"""The explorer: every fault plan up to a few injections, run and checked against invariants.

Owns the invariants a run must keep (``invariants``), the enumeration of fault plans
(``plans``) and the search for minimal counterexamples (``explorer``). It imports the ground
floor and the lab, and runs the lab's model unchanged: a counterexample is a real run.
"""
