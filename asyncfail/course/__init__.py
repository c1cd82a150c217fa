"""The course floor: what the lessons show that is not the model itself.

Owns every lesson's control labels and defaults, its prose, its check for understanding, and the
judging of a learner's prediction. Lessons read all of it from here, so a word a learner sees
is written once. It also holds the instructor guide (``teaching``, the ``*_teaching`` plans,
``demos`` and ``guide``), which reads the same words and runs the same model. It may import
every wing below it (ground, lab, contract, handoff, charts), never the CLI.
"""
