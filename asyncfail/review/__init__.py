"""The review handoff: the seed's review document, rendered from the failure lab's runs.

``handoff.build_review(fault, mode=...)`` runs the runtime under review (``runtimes``: the
naive loop or a durable engine's step) and the durable runtime under one fault and writes every
count, status and sentence about the failure point from the two results, in ``words``. It
imports the ground floor, the lab and the document model.
"""
