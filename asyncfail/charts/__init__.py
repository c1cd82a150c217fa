"""Charts of the lessons: plain-data rows and cells, and the charts drawn from them.

Owns the sequence view's rows (``sequence``: who sends what to whom) and its drawing as SVG
(``sequence_drawing``, from the pieces in ``drawing``), timeline rows and narration
(``timeline``), the marks of the view over time (``instants``, ``bands``), heatmap cells
(``heatmap``) and the heatmap drawn as SVG (``heatmap_drawing``), the look of every chart
(``look``), the altair builders that generate the Vega-Lite templates (``builders``,
``risk_builders``, ``encodings``: never imported by a lesson) and the Vega-Lite specs lessons
draw (``specs``). It imports the ground floor, the lab and the contract wing.
"""
