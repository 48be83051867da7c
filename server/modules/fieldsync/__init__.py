"""Field sync: device keys, auto numbers, signed record push, evidence photos, field-data pull,
the operator's autos and the public auto page. See docs/sync-api.md."""
