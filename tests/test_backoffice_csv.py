"""Every back-office list downloads as CSV ("Exportar CSV"): the list as filtered on screen,
all pages, pt-BR labels, CPF masked, scoped to the municipality. Contents checked against the
database, read independently of the export code."""
import csv
import io
import re

import pytest

from helpers import login
from server.extensions import db


def _csv(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    return rows[0], rows[1:]


def _muni(slug):
    from server.modules.registry.models import Municipality
    return Municipality.query.filter_by(slug=slug).one()


def test_permit_list_csv_follows_the_filters_and_masks_cpf(app, client, demo):
    from server.core.validation import mask_cpf
    from server.modules.registry.models import Permit
    login(client, "backoffice.sapezal")
    page = client.get("/bo/permissoes/?situacao=ativo&page=2").get_data(as_text=True)
    form = page.split('class="export-form"')[1].split("</form>")[0]
    assert 'name="situacao" value="ativo"' in form and 'name="formato" value="csv"' in form and "page" not in form
    header, rows = _csv(client, "/bo/permissoes/?situacao=ativo&page=2&formato=csv")
    assert header == ["Número", header[1], "CPF/CNPJ", "Placa", "Ponto", "Validade", "Situação"]
    with app.app_context():
        muni = _muni("sapezal")
        permits = Permit.query.filter_by(municipality_id=muni.id, status="ativo").all()
        expected = {p.number: (mask_cpf(p.holder_operator.cpf) if p.holder_operator else None,
                               p.valid_until.strftime("%d/%m/%Y")) for p in permits}
    assert len(rows) == len(expected) > 0  # every page, not page 2 only
    for row in rows:
        cpf, valid = expected[row[0]]
        if cpf:
            assert row[2] == cpf and row[2].startswith("***.")
        assert row[5] == valid
        assert row[6].lower().startswith("ativ")


def test_operator_csv_search_and_no_full_cpf(app, client, demo):
    from server.modules.registry.models import Operator
    login(client, "backoffice.paranatinga")
    with app.app_context():
        muni = _muni("paranatinga")
        operators = Operator.query.filter_by(municipality_id=muni.id).all()
        someone = operators[0]
        surname = someone.name.split()[-1]
        matching = {o.name for o in operators if surname.lower() in o.name.lower()}
        cpfs = [o.cpf for o in operators]
    header, rows = _csv(client, "/bo/operadores/?formato=csv")
    assert header == ["Nome", "CPF", "CNH", "Validade CNH"]
    assert sorted(r[0] for r in rows) == sorted(o.name for o in operators)
    body = "\n".join(";".join(r) for r in rows)
    assert not any(cpf in body for cpf in cpfs)
    _, found = _csv(client, f"/bo/operadores/?q={surname}&formato=csv")
    assert {r[0] for r in found} == matching


@pytest.mark.parametrize("url, model, first", [("/bo/veiculos/", "Vehicle", "plate"),
                                               ("/bo/pontos/", "Ponto", "name")])
def test_vehicle_and_ponto_csv(app, client, demo, url, model, first):
    from server.modules.registry import models
    login(client, "backoffice.sapezal")
    with app.app_context():
        muni = _muni("sapezal")
        expected = sorted(getattr(r, first) for r in getattr(models, model).query.filter_by(municipality_id=muni.id))
    _, rows = _csv(client, url + "?formato=csv")
    values = [r[0] for r in rows]
    if first == "plate":  # one plate format, the screens' (issue 34): "ABC-1234", "ABC1D23"
        assert all(re.fullmatch(r"[A-Z]{3}-\d{4}|[A-Z]{3}\d[A-Z]\d{2}", v) for v in values), values
        values = [v.replace("-", "") for v in values]
    assert sorted(values) == expected


def test_company_csv(app, client, demo):
    from server.modules.registry.models import Company
    login(client, "backoffice.nortelandia")
    with app.app_context():
        expected = sorted(c.legal_name for c in Company.query.filter_by(municipality_id=_muni("nortelandia").id))
    header, rows = _csv(client, "/bo/empresas/?formato=csv")
    assert header == ["Razão social", "Nome fantasia", "CNPJ"]
    assert sorted(r[0] for r in rows) == expected


def test_audit_and_unit_value_csv(app, client, demo):
    from server.core.audit import AuditLog
    from server.modules.registry.models import UnitValue
    login(client, "backoffice.sapezal")
    with app.app_context():
        muni = _muni("sapezal")
        audit_count = AuditLog.query.filter_by(municipality_id=muni.id).count()
        permit_rows = AuditLog.query.filter_by(municipality_id=muni.id, entity="permit").count()
        units = sorted((u.unit, u.valid_from.strftime("%d/%m/%Y")) for u in UnitValue.query.filter_by(municipality_id=muni.id))
    header, rows = _csv(client, "/bo/auditoria?formato=csv")
    assert header == ["Quando", "Quem", "Ação", "Registro", "Código do registro", "Motivo", "Alterações"]
    assert len(rows) == audit_count > 0
    _, filtered = _csv(client, "/bo/auditoria?entidade=permit&formato=csv")
    assert len(filtered) == permit_rows
    header, rows = _csv(client, "/bo/unidades?formato=csv")
    assert header == ["Unidade", "Vigente desde", "Valor (R$)", "Ato"]
    assert sorted((r[0], r[1]) for r in rows) == units
    assert all("," in r[2] for r in rows)


def test_users_and_devices_csv(app, client, demo):
    from fieldsync_device import FakeDevice
    from server.modules.accounts.models import User
    FakeDevice(client, "fiscal.sapezal", name="Moto G do fiscal")
    login(client, "admin")
    client.post("/bo/municipio", data={"municipality_id": _id(app, "sapezal"),
                                       "csrf_token": _token(client, "/bo/municipio")})
    with app.app_context():
        usernames = sorted(u.username for u in User.query.filter_by(municipality_id=_muni("sapezal").id))
    header, rows = _csv(client, "/bo/usuarios/?formato=csv")
    assert header == ["Usuário", "Nome", "Matrícula", "Perfil", "Situação"]
    assert sorted(r[0] for r in rows) == usernames
    header, rows = _csv(client, "/bo/usuarios/?formato=csv&lista=dispositivos")
    assert header[0] == "Dispositivo" and [r[:2] for r in rows] == [["Moto G do fiscal", "fiscal.sapezal"]]


def _id(app, slug):
    with app.app_context():
        return _muni(slug).id


def _token(client, path):
    from helpers import csrf_token
    return csrf_token(client, path)


def test_csv_is_scoped_to_the_municipality(app, client, demo):
    from server.modules.registry.models import Permit
    login(client, "backoffice.sapezal")
    with app.app_context():
        other = {p.number for p in Permit.query.filter_by(municipality_id=_muni("paranatinga").id)}
        mine = {p.number for p in Permit.query.filter_by(municipality_id=_muni("sapezal").id)}
    _, rows = _csv(client, "/bo/permissoes/?formato=csv")
    assert {r[0] for r in rows} == mine
    assert not ({r[0] for r in rows} & (other - mine))


def test_csv_of_a_hostile_search_is_a_csv_not_an_error(app, client, demo):
    from server.modules.registry.models import Operator
    from server.modules.permits.entities import save_entity
    with app.app_context():
        muni = _muni("sapezal")
        op = Operator.query.filter_by(municipality_id=muni.id).first()
        save_entity(Operator, muni, {"name": "=HYPERLINK(\"http://x\") Silva"}, op)
        db.session.commit()  # as the clerk's request
    login(client, "backoffice.sapezal")
    for url in ("/bo/operadores/", "/bo/permissoes/", "/bo/veiculos/", "/bo/auditoria", "/bo/pontos/"):
        for q in ("'; DROP TABLE permit; --", "%", "_", "=1+1", "ção" * 40):
            _csv(client, f"{url}?q={q}&formato=csv&page=999999999999")
    _, rows = _csv(client, "/bo/operadores/?q=HYPERLINK&formato=csv")
    assert [r[0] for r in rows] == ["'=HYPERLINK(\"http://x\") Silva"]
