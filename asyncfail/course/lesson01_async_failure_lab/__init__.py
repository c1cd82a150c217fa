"""Lesson 1, the Async Failure Lab (``notebooks/01_async_failure_lab.py``): what it shows beyond
the model and the page parts every lesson shares.

The lesson's words are in the notebook; its controls are the lab's own (``Fault``,
``SEED_FAULT``), its runs ``lab.simulation.simulate_each_mode``, its predict-then-reveal the
course's (``course.page``). What it adds is its last section, the model checked against the
reference implementation: ``verification`` (the recorded table and where a live run may be
offered, ``verification.can_run_live``) and ``verified`` (the table, written by
``make verify-record``).
"""
