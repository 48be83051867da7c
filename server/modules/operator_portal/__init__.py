"""Operator mode of the field app: first access with a back-office code, the operator's crachá."""
