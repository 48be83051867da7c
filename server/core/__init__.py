"""Cross-cutting pieces: auth and roles, error envelope, security headers, audit log, validation."""

# pt-BR validation messages must be in place before any schema class is defined.
from . import validation  # noqa: E402,F401
