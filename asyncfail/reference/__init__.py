"""The reference implementation: the lab's two runtimes on real parts, to check the model against.

Read it in this order, each in a few minutes: ``worker.py`` (the naive loop and the durable
runtime, with its journal: the intent written before the call, the lookup before any second
call), ``receiver.py`` (the debit tool over HTTP, the ledger and the idempotency records in
SQLite, and where each fault strikes), ``channel.py`` (the queue: visibility timeout and
delivery budget), ``supervisor.py`` (one case, run and read back) and ``verification.py`` (the
model beside the real run). ``asyncfail verify`` runs it; DESIGN.md says what "real" means for
each fault.
"""
