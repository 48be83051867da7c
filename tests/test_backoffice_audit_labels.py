"""Every audit action code recorded anywhere in server/ has a pt-BR label (core.audit_labels), and
the audit log shows the labels, never the codes.

The codes are collected from the source: each call to record(...) gives its first argument (or
`action=`) as a string literal or a conditional of literals. The one call that passes a variable
(the permit transitions) is resolved from permits.operations.TRANSITIONS; any other variable
fails the test, so a new dynamic call must be taught here.
"""
import ast
from pathlib import Path

from server.core.audit_labels import ACTION_LABELS, ENTITY_LABELS
from server.modules.autos.operations import TRANSITIONS as AUTO_TRANSITIONS
from server.modules.permits.operations import TRANSITIONS

SERVER = Path(__file__).resolve().parents[1] / "server"
# Calls whose action is a variable, and where its values come from.
DYNAMIC = {("modules/permits/operations.py", "change_permit_status"): set(TRANSITIONS),
           ("modules/autos/operations.py", "decide"): set(AUTO_TRANSITIONS)}


def _literals(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        return None if body is None or orelse is None else body | orelse
    return None


def _record_names(tree):
    """The names a file calls core.audit.record by ("record", or an alias such as "audit")."""
    names = {"record"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("audit"):
            names |= {alias.asname for alias in node.names if alias.name == "record" and alias.asname}
    return names


def _is_record(call, names=frozenset({"record"})):
    func = call.func
    return (isinstance(func, ast.Name) and func.id in names) or \
        (isinstance(func, ast.Attribute) and func.attr == "record" and
         isinstance(func.value, ast.Name) and func.value.id == "audit")


def recorded_codes():
    """{code: [where]} for actions, {code: [where]} for entities, and unresolved call sites."""
    actions, entities, unresolved = {}, {}, []
    for path in sorted(SERVER.rglob("*.py")):
        rel = path.relative_to(SERVER).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = _record_names(tree)
        for func in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
            for call in [n for n in ast.walk(func) if isinstance(n, ast.Call) and _is_record(n, names)]:
                args = {kw.arg: kw.value for kw in call.keywords}
                action = call.args[0] if call.args else args.get("action")
                entity = call.args[1] if len(call.args) > 1 else args.get("entity")
                where = f"{rel}:{call.lineno}"
                codes = _literals(action) if action is not None else None
                if codes is None:
                    codes = DYNAMIC.get((rel, func.name))
                if codes is None:
                    unresolved.append(where)
                    continue
                for code in codes:
                    actions.setdefault(code, []).append(where)
                for code in (_literals(entity) or ()) if entity is not None else ():
                    entities.setdefault(code, []).append(where)
    return actions, entities, unresolved


def test_every_recorded_action_and_record_has_a_label():
    actions, entities, unresolved = recorded_codes()
    assert not unresolved, f"record() with an action this test cannot read: {unresolved}"
    # The collector itself works: it finds codes we know are recorded.
    assert {"credential_issue", "first_access_code_issued", "renew", "login"} <= set(actions)
    missing = {code: where for code, where in actions.items() if code not in ACTION_LABELS}
    assert not missing, f"audit actions without a pt-BR label in core/audit_labels.py: {missing}"
    missing = {code: where for code, where in entities.items() if code not in ENTITY_LABELS}
    assert not missing, f"audited records without a pt-BR label in core/audit_labels.py: {missing}"


def test_labels_are_portuguese_text_not_codes():
    for code, label in {**ACTION_LABELS, **ENTITY_LABELS}.items():
        assert label != code and "_" not in label and label[0].isupper(), (code, label)


def test_audit_log_shows_labels_not_codes(app, client, demo, login_as):
    from server.extensions import db
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Municipality, Operator

    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_operator_access(Operator.query.filter_by(municipality_id=muni.id).first())
        db.session.commit()
    login_as("backoffice.sapezal")
    html = client.get("/bo/auditoria").get_data(as_text=True)
    assert "Código de primeiro acesso gerado" in html
    assert "Entrada no back office" in html
    assert "first_access_code_issued" not in html and ">login<" not in html
    # The filter names every kind of audited record in pt-BR, the permit in the law's words.
    assert ">Alvará de autorização</option>" in html and ">Crachá</option>" in html


def test_every_audited_column_has_a_field_label():
    from server.core.audit_labels import FIELD_LABELS
    from server.modules.accounts.models import Device, User
    from server.modules.credentials.models import Credential, IssuerKey
    from server.modules.registry.models import Company, Operator, Permit, Ponto, UnitValue, Vehicle

    # Never shown in a diff: keys, bookkeeping and secrets (snapshots leave them out or they are internal).
    internal = {"id", "municipality_id", "created_at", "updated_at", "name_search", "password_hash",
                "session_epoch", "payload", "private_key_pem"}
    missing = [f"{model.__name__}.{column.key}"
               for model in (Permit, Operator, Vehicle, Company, Ponto, UnitValue, User, Device,
                             Credential, IssuerKey)
               for column in model.__table__.columns
               if column.key not in internal and column.key not in FIELD_LABELS]
    assert not missing, f"columns without a pt-BR label in core/audit_labels.FIELD_LABELS: {missing}"
