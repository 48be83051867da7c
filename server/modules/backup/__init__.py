"""Backup and restore of one installation: the database dump and the stored files in one archive (`flask backup create|restore`, docs/operations.md)."""
