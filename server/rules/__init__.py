"""Pure-Python rules engine (no Flask). See shared_rules/SPEC.md and shared_rules/README.md."""
from .compose import (ComposedRules, SPEC_VERSION, compile_composed, compose,  # noqa: F401
                      load_municipality)
from .checklist import auto_fields, auto_form, checklist  # noqa: F401
from .evaluation import evaluate  # noqa: F401
from .errors import (EvalError, FactError, HistoryError, PackError, RulesError,  # noqa: F401
                     UnknownMunicipality)
from .validate import validate_all  # noqa: F401
