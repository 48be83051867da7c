"""A permit's life and the registry's writes: issuing, renewing, suspending, expiring and lapsing
permits (operations.py), the changes during their life (changes_of_life.py), the other registry
records (entities.py) and their validation by the municipality's rule packs (rule_checks.py). Above issuance, selection,
credentials, the rules and the calendar, which it calls; the registry below keeps the data."""
