"""The risk wing: a seeded Monte Carlo over the timed model, with exact answers where they exist.

Owns what a trial draws (``inputs``, ``draws``), running trials across every retention at once
(``trials``), the estimators (``estimates``), the exact cases (``exact``) and the report a
command or a lesson shows (``report``). It imports the ground floor and the lab and runs the lab's
model unchanged. pandas is imported only by ``frames``, which nothing on a page's path loads.
"""
