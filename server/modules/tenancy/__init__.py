"""Row-level security administration (`flask tenancy app-role`); the model is core/tenancy.py."""
