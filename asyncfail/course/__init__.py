"""The course floor: what the lessons show beyond the model.

A lesson is a notebook (``notebooks/NN_name.py``, whose Markdown cells hold its words) plus at
most one module or folder named after it, ``lessonNN_name``, for what it computes beyond the
model: its controls' defaults and parsing, its derived tables and texts. No lesson module reads
another. The parts lessons share are written once: the course and its lessons in order
(``catalog``), what every page has around its content and predict-then-reveal (``page``), the
judging of a prediction (``prediction``), the lab's settings as controls (``controls``), and
the words the site adds around the lessons (``site``). It may import every wing below it, never
the CLI or the reference implementation.
"""
