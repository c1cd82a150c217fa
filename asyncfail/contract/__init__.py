"""The idempotency contract experiment: two fictional requests at one receiver.

Owns key scopes, fingerprints, the retention boundary, the four real contracts (profiles), the
findings, and sweeps over retention and delay. It imports only the ground floor: it never runs
the failure lab.
"""
