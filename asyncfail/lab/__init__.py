"""The failure lab: one debit, a channel, a worker, two runtimes, a receiver, injected faults.

Owns the event vocabulary, fault points and plans, the actors, the two runtimes, the
interpreter that runs them (``simulation.run_plan``), and every rule that reads a trace
(``reading``). It imports only the ground floor.
"""
