# A package, so this folder's conftest.py is imported as e2e.conftest and never shadows
# tests/conftest.py (which other tests import as `conftest`).
