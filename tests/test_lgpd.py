"""LGPD export (issue 21): every row about a demo operator, for every table the models say points
at them (derived here from the schema, so a table added later is checked without editing this
test); the bundle and PDF; admin only, scoped, audited."""
import io
import json
import zipfile

from helpers import csrf_token, login
from sqlalchemy import select

from server.core.audit import AuditLog
from server.extensions import db
from server.modules.registry.models import Operator


def _tables_pointing_at(name):
    return [(t, fk.parent.name) for t in db.metadata.sorted_tables for fk in t.foreign_keys
            if fk.column.table.name == name]


def _richest_operator():
    """The demo operator most rows point at (permits, crachás, field records…)."""
    best, best_count = None, -1
    for (op_id,) in db.session.execute(select(Operator.id)):
        count = sum(db.session.execute(select(t).where(t.c[c] == op_id)).first() is not None
                    for t, c in _tables_pointing_at("operator"))
        if count > best_count:
            best, best_count = op_id, count
    return db.session.get(Operator, best)


def test_export_holds_every_row_of_every_table_pointing_at_the_operator(app):
    from server.modules.lgpd.export import collect
    from server.modules.demo.dataset import load_demo

    with app.app_context():
        load_demo(credentials=True)
        db.session.commit()  # the loader stages; `flask demo load` commits
        operator = _richest_operator()
        data = collect(operator)
        pointing = _tables_pointing_at("operator")
        assert {"permit", "credential", "field_record", "user", "permit_driver"} <= {t.name for t, _ in pointing}
        checked = 0
        for table, column in pointing:
            expected = [dict(r._mapping) for r in db.session.execute(select(table).where(table.c[column] == operator.id))]
            exported = data.get(table.name, [])
            for row in expected:
                key = {k: v for k, v in row.items() if k in ("id", "permit_id", "operator_id")}
                assert any(all(e.get(k) == v for k, v in key.items()) for e in exported), (table.name, key)
                checked += 1
        assert checked >= 3
        # Second level: the crachás of the operator's permits, and the rows about their field records.
        permit_ids = {p["id"] for p in data["permit"]}
        for table, column in _tables_pointing_at("permit"):
            for row in db.session.execute(select(table).where(table.c[column].in_(permit_ids))):
                assert any(e.get(column) == row._mapping[column] for e in data.get(table.name, [])), table.name
        assert data["operator"][0]["cpf"] == operator.cpf
        assert all("password_hash" not in u for u in data.get("user", []))


def test_export_screen_admin_only_scoped_audited(app, demo, client):
    with app.app_context():
        from server.modules.registry.models import Municipality
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        own = Operator.query.filter_by(municipality_id=sapezal.id).first().id
        other = Operator.query.filter(Operator.municipality_id != sapezal.id).first().id
    from helpers import DEMO_PASSWORD
    from server.modules.accounts.models import User
    with app.app_context():
        admin = User(username="admin.sapezal", name="Adm Sapezal", role="admin", municipality_id=sapezal.id)
        admin.set_password(DEMO_PASSWORD)
        db.session.add(admin)
        db.session.commit()
    login(client, "backoffice.sapezal")
    assert client.get(f"/bo/lgpd/operadores/{own}").status_code == 403
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "admin.sapezal")
    token = csrf_token(client, f"/bo/lgpd/operadores/{own}")
    head = client.get(f"/bo/lgpd/operadores/{own}").get_data(as_text=True).split("</title>")[0]
    assert "Pedido LGPD" in head and "<section" not in head  # the tab's title is text, not the page
    assert client.get(f"/bo/lgpd/operadores/{other}").status_code == 404
    assert client.post(f"/bo/lgpd/operadores/{own}/exportar.zip").status_code == 400  # no CSRF
    bundle = client.post(f"/bo/lgpd/operadores/{own}/exportar.zip", data={"csrf_token": token})
    assert bundle.status_code == 200
    with zipfile.ZipFile(io.BytesIO(bundle.data)) as archive:
        body = json.loads(archive.read("dados.json"))
    assert body["tabelas"]["operator"][0]["id"] == own
    report = client.post(f"/bo/lgpd/operadores/{own}/exportar.pdf", data={"csrf_token": token})
    assert report.status_code == 200 and report.data[:5] == b"%PDF-"
    import subprocess
    text = " ".join(subprocess.run(["pdftotext", "-", "-"], input=report.data, capture_output=True,
                                   check=True).stdout.decode().split())
    with app.app_context():
        person = db.session.get(Operator, own)
        assert person.name in text and person.cpf in text  # readable: the titular's own data, in words
    with app.app_context():
        entries = (AuditLog.query.filter_by(action="lgpd_export", entity="operator", entity_id=str(own))
                   .order_by(AuditLog.id).all())  # PostgreSQL returns rows in heap order otherwise
        assert [e.after["format"] for e in entries] == ["zip", "pdf"]
        assert all(e.actor_label == "admin.sapezal" for e in entries)


def test_rectification_trail_shows_each_correction(app, demo, client):
    """Art. 18, III: a correction made through the registry form appears with before and after."""
    from helpers import DEMO_PASSWORD
    from server.modules.accounts.models import User
    from server.modules.registry.models import Municipality
    from server.modules.permits.entities import save_entity

    with app.app_context():
        sapezal = Municipality.query.filter_by(slug="sapezal").one()
        operator = Operator.query.filter_by(municipality_id=sapezal.id).first()
        ident, old_phone = operator.id, operator.phone
        save_entity(Operator, sapezal, {"phone": "(65) 98888-7777"}, operator, reason="Telefone novo informado pelo titular")
        admin = User(username="admin.sapezal", name="Adm Sapezal", role="admin", municipality_id=sapezal.id)
        admin.set_password(DEMO_PASSWORD)
        db.session.add(admin)
        db.session.commit()
    login(client, "admin.sapezal")
    page = client.get(f"/bo/lgpd/operadores/{ident}").get_data(as_text=True)
    assert f"{old_phone} → (65) 98888-7777" in page and "Telefone novo informado pelo titular" in page
    # The trail travels with the export: who, when, old → new and why.
    token = csrf_token(client, f"/bo/lgpd/operadores/{ident}")
    bundle = client.post(f"/bo/lgpd/operadores/{ident}/exportar.zip", data={"csrf_token": token})
    with zipfile.ZipFile(io.BytesIO(bundle.data)) as archive:
        trail = json.loads(archive.read("dados.json"))["retificacoes"]
    [fix] = [t for t in trail if t["motivo"] == "Telefone novo informado pelo titular"]
    assert fix["acao"] == "update" and fix["quem"] == "sistema" and fix["quando"]
    assert {"campo": "phone", "antes": old_phone, "depois": "(65) 98888-7777"} in fix["alteracoes"]
