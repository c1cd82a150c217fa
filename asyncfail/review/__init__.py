"""The review handoff: the seed's review document, rendered from the failure lab's runs.

``handoff.build_review(fault)`` runs both runtimes under one fault and writes every count,
status and sentence about the failure point from the two results. It imports the ground floor,
the lab and the document model.
"""
