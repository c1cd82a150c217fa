"""Documents for people: a small document model and its two renderings.

Owns the model (``markup``: sections, paragraphs, lists, tables, inline code and emphasis), its
Markdown (``markdown``) and its HTML page (``html_page``); all text is escaped there and nowhere
else. It imports only the ground floor: the review handoff, the readiness checklist and the
lessons lay their documents out with it.
"""
