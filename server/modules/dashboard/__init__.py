"""Back-office dashboard: figures derived from the field records on receipt (models.py,
derive.py, operations.py) and the aggregates the home page shows (queries.py)."""
