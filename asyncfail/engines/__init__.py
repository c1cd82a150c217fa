"""Real durable-execution engines, each run beside the model by ``asyncfail verify --engine``.

Only the CLI reaches this wing, and no module of it imports an engine's package: each engine's
application runs as a script in its own process (``dbos_app.py``). The registry is
``registry.ENGINES``; what an engine supplies is ``adapter.Engine``.
"""
