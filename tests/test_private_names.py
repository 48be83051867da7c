"""No module imports another module's private (`_`-prefixed) name: what a module shares, it names
as public, so that the one place for each piece of logic is visible from outside. (Ruff's
PLC2701 sees only imports from other packages; this reads every `from … import` of the server.)"""
import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server"


def _private_imports():
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        yield f"{path.relative_to(SERVER.parent)}:{node.lineno} imports {alias.name}"


def test_no_private_name_is_imported_across_modules():
    found = list(_private_imports())
    assert not found, "\n".join(found)
