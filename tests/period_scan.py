"""Where a period may be computed: the calendar modules only (issue 35, item 1). Scans server
and phone code for day arithmetic on dates — `x ± timedelta(days=…)`, `(a - b).days` compared to
a number, in Python; `setDate(`, `* DAY_MS`, `86400000` in the phone's JavaScript — outside the
calendar modules. Each place that is not a legal period (an epoch day number, a list's horizon, the
day after a range for a query bound) is allowed by name with its reason in test_legal_periods.py;
anything else fails the test, so a new period is counted by the legal calendar or declared here."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALENDAR_MODULES = {"server/rules/legal_calendar.py", "server/rules/dates.py",
                    "pwa/js/rules/legal_calendar.js", "pwa/js/rules/dates.js"}
CALENDAR_PACKAGES = ("server/modules/calendar/", "server/modules/demo/")  # demo: data dated from today


def _is_day_timedelta(node):
    if not isinstance(node, ast.Call):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    if name != "timedelta":
        return False
    return bool(node.args) or any(k.arg in ("days", "weeks") for k in node.keywords)


def _is_days_of_difference(node):
    return (isinstance(node, ast.Attribute) and node.attr == "days"
            and isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.Sub))


class _Finder(ast.NodeVisitor):
    def __init__(self):
        self.scope, self.found = ["<module>"], []

    def _scoped(self, node):
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_BinOp(self, node):
        if isinstance(node.op, (ast.Add, ast.Sub)) and (_is_day_timedelta(node.left) or _is_day_timedelta(node.right)):
            self.found.append((".".join(self.scope[1:]) or "<module>", node.lineno, "± timedelta(days)"))
        self.generic_visit(node)

    def visit_Assign(self, node):  # a module constant of days, used in arithmetic elsewhere
        if _is_day_timedelta(node.value):
            self.found.append((".".join(self.scope[1:]) or "<module>", node.lineno, "timedelta(days) constant"))
        self.generic_visit(node)

    def visit_Compare(self, node):
        if any(_is_days_of_difference(n) for n in [node.left, *node.comparators]):
            self.found.append((".".join(self.scope[1:]) or "<module>", node.lineno, "(a - b).days compared"))
        self.generic_visit(node)


def python_findings(source, path="<planted>"):
    """[(path, scope, line, what)] of day arithmetic in one Python source."""
    finder = _Finder()
    finder.visit(ast.parse(source))
    return [(path, scope, line, what) for scope, line, what in finder.found]


JS_DAY_ARITHMETIC = re.compile(r"\.setDate\(|\bDAY_MS\b\s*\*|\*\s*DAY_MS\b|86400000|864e5")


def js_findings(source, path="<planted>"):
    return [(path, "", n, line.strip()) for n, line in enumerate(source.splitlines(), 1)
            if JS_DAY_ARITHMETIC.search(line) and not line.strip().startswith("//")]


def _outside_calendar(rel):
    return rel not in CALENDAR_MODULES and not rel.startswith(CALENDAR_PACKAGES)


def all_findings():
    out = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if _outside_calendar(rel):
            out += python_findings(path.read_text(encoding="utf-8"), rel)
    for path in sorted((ROOT / "pwa" / "js").rglob("*.js")):
        rel = path.relative_to(ROOT).as_posix()
        if _outside_calendar(rel) and "/vendor/" not in rel:
            out += js_findings(path.read_text(encoding="utf-8"), rel)
    return out
