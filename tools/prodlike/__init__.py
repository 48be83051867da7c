"""The production topology on loopback (docs/operations.md, "The production topology on one
machine"): `tools/prod-like` starts it by hand, tests/test_prod_like.py runs a first month in it."""
