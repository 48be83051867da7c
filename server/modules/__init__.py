"""Feature packages; each has blueprint, views, models, schemas and operations modules."""
