"""The generated parts of the docs are current: docs/urls.md (tools/url_table.py, from the app's
URL map, with the roles each view declares) and the package table of docs/ARCHITECTURE.md
(tools/architecture_map.py, from .importlinter and the package docstrings)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("url_table", ROOT / "tools" / "url_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_url_table_is_current(app):
    expected = _tool().table(app)
    assert (ROOT / "docs" / "urls.md").read_text() == expected, (
        "docs/urls.md is stale: run .venv/bin/python tools/url_table.py")


def test_url_table_names_each_route_and_its_roles(app):
    text = (ROOT / "docs" / "urls.md").read_text()
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 100
    for rule in rules:
        assert f"| `{rule.rule}` |" in text, rule.rule
    # Back-office review pages declare their roles: the table shows them, never "público".
    review_rows = [line for line in text.splitlines() if line.startswith("| `/bo/revisao")]
    assert review_rows and all("sessão" in line for line in review_rows), review_rows


def test_architecture_package_table_is_current():
    spec = importlib.util.spec_from_file_location("architecture_map", ROOT / "tools" / "architecture_map.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    current = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    assert module.render(current) == current, (
        "docs/ARCHITECTURE.md's package table is stale: run .venv/bin/python tools/architecture_map.py")
    # Every feature package appears, in its layer.
    for package in (ROOT / "server" / "modules").iterdir():
        if (package / "__init__.py").exists():
            assert f"| `{package.name}` |" in current, package.name
