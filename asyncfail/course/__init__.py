"""The course floor: what the lessons show that is not the model itself.

Owns every lesson's control labels and defaults, its prose, its check for understanding, and the
judging of a learner's prediction. Lessons read all of it from here, so a word a learner sees
is written once. It may import every wing below it, never the CLI. (The instructor guide,
``docs/teaching.md``, is written by hand; ``tests/docs`` runs its examples.)
"""
