"""Charts of the lessons: plain-data rows and cells, and Vega-Lite specs drawn from them.

Owns timeline rows and narration (``timeline``), heatmap cells (``heatmap``), the look of every
chart (``look``), the altair builders that generate the templates (``builders``, never imported
by a lesson) and the specs lessons draw (``specs``). It imports the ground floor, the lab and the
contract wing.
"""
