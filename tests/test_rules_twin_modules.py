"""The two rule engines are split the same way (issue 39): a function of evaluate() sits in the
same-named module on both sides, so a reader who finds it in server/rules/deadlines.py finds its twin
in pwa/js/rules/deadlines.js. Behaviour is the vectors' business (test_rules_conformance); this
checks only that the modules' public functions pair up, name for name (snake_case ↔ camelCase)."""
import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPLIT_MODULES = ("evaluation", "deadlines", "recidivism")


def _python_public_functions(name):
    tree = ast.parse((ROOT / "server" / "rules" / f"{name}.py").read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}


def _js_exported_functions(name):
    text = (ROOT / "pwa" / "js" / "rules" / f"{name}.js").read_text(encoding="utf-8")
    return set(re.findall(r"^export (?:async )?function (\w+)", text, re.MULTILINE))


def _camel(snake):
    head, *rest = snake.split("_")
    return head + "".join(word.capitalize() for word in rest)


@pytest.mark.parametrize("name", SPLIT_MODULES)
def test_each_public_function_has_its_twin_in_the_same_named_module(name):
    python = {_camel(f) for f in _python_public_functions(name)}
    assert python, f"server/rules/{name}.py shares no function"
    assert python == _js_exported_functions(name)

