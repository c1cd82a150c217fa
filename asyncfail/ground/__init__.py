"""The ground floor: vocabularies, the seed's fixed prose, and small prose helpers.

Owns what every wing says the same way: the release version, the seed's words (its five
assumptions and the review handoff's fixed prose), how counts and lists are written in
English, canonical JSON, and the check-your-understanding question type. It imports only the
standard library and pydantic: nothing of asyncfail above it.
"""
