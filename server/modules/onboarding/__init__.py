"""A new municipality without the demo: creating it from its law's pack, its first administrator, and the platform pages that do it."""
