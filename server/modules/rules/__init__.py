"""Flask side of the rule packs: municipal configuration from the database, CLI and API."""
