"""A sheet as Excel really leaves it (issue 36, item 3): identifiers typed into "Geral" columns
turned into numbers without their leading zeros, a column the clerk added, formulas typed as
names and phones, several errors in one row; an expired CNH and a known CPF under another name
wait for a decision; the existing fleet's old motorcycles are recorded in transition (item 2). All
of it is reported in one pass, and the corrected sheet imports at once. Re-sent, its changes are
listed and applied only on confirmation, audited."""
from datetime import timedelta

import pytest
from openpyxl import Workbook, load_workbook
from registry_import_data import cnh_leading_zero, cpf_leading_zero, renavam_leading_zero, values_for

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.extensions import db
from server.modules.registry.models import Municipality, Operator, Permit, Vehicle
from server.modules.registry.transition_models import PermitTransition
from server.modules.registry_import.columns import columns_for
from server.modules.registry_import.importer import run_import
from server.modules.registry_import.template import template_xlsx


def _sheet(path, columns, rows, extra=None):
    """The sheet as Excel keeps it: identifiers as numbers (zeros gone), an extra column."""
    book = Workbook()
    sheet = book.active
    sheet.append([c.header for c in columns] + ([extra] if extra else []))
    for row in rows:
        cells = []
        for c in columns:
            value = row.get(c.key, "")
            if c.key in ("operator.cpf", "operator.cnh_number", "vehicle.renavam") and str(value).isdigit():
                value = int(value)  # what a "Geral" column makes of 01234567890
            cells.append(value)
        sheet.append(cells + (["anotação do balcão"] if extra else []))
    book.save(path)


def _setup(runner):
    result = runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                                 "--pack", "sapezal-lei-125-1999", "--public-base-url", "http://localhost:5000"])
    assert result.exit_code == 0, result.output


@pytest.mark.db
def test_excel_damaged_sheet_one_pass_then_corrected_import_and_reimport_diff(app, runner, tmp_path):
    _setup(runner)
    today = local_today()
    with app.app_context():
        muni = Municipality.query.one()
        columns = columns_for(muni)
        known = Operator(municipality_id=muni.id, name="Maria Já Cadastrada", cpf=cpf_leading_zero(50), cnh_number=cnh_leading_zero(90),
                         cnh_category="A", cnh_first_issue_date=today - timedelta(days=4000),
                         cnh_expiry=today + timedelta(days=400), birth_date=today - timedelta(days=12000))
        db.session.add(known)
        db.session.commit()
    rows = []
    for i in range(8):
        row = values_for(i, today)
        row.update({"operator.cpf": cpf_leading_zero(i), "operator.cnh_number": cnh_leading_zero(i),
                    "vehicle.renavam": renavam_leading_zero(i)})
        rows.append(row)
    assert all(r["operator.cpf"].startswith("0") and r["vehicle.renavam"].startswith("0") for r in rows)
    rows[1]["operator.name"] = "=HYPERLINK(\"http://x\",\"João\")"           # line 3
    rows[2]["operator.phone"] = "@SUM(1+1)"                                    # line 4
    rows[3]["operator.birth_date"] = "31/02/1990"                              # line 5: three errors at once
    rows[3]["operator.cnh_number"] = "12345678901"
    rows[3]["vehicle.plate"] = ""
    rows[4]["operator.cnh_expiry"] = (today - timedelta(days=20)).strftime("%d/%m/%Y")   # line 6: decision
    rows[5]["operator.name"] = "Outro Nome"                                    # line 7: decision (known CPF)
    rows[5]["operator.cpf"] = cpf_leading_zero(50)
    rows[6]["vehicle.year_manufacture"] = str(today.year - 9)                  # line 8: Sapezal art. 5º
    path = tmp_path / "cadastro.xlsx"
    _sheet(path, columns, rows, extra="Observações")

    with app.app_context():
        muni = Municipality.query.one()
        dry = run_import(muni, str(path), "xlsx", path.name)
    errors = {(line, column) for line, column, _m in dry.errors}
    messages = {(line, column): m for line, column, m in dry.errors}
    assert errors == {(3, "Nome do titular"), (4, "Telefone"), (5, "Data de nascimento"), (5, "Número da CNH"),
                      (5, "Placa")}
    assert "fórmula" in messages[(3, "Nome do titular")] and "“=”" in messages[(3, "Nome do titular")]
    assert "“@”" in messages[(4, "Telefone")]
    assert dry.warnings == [(1, "Observações", "Coluna desconhecida: ignorada (não faz parte do modelo deste município).")]
    assert {(line, kind) for line, _c, kind, _m in dry.decisions} == {(6, "cnh_vencida"), (7, "cpf_outro_nome")}
    assert "Maria Já Cadastrada" in [m for ln, _c, _k, m in dry.decisions if ln == 7][0]
    assert [(line, column) for line, column, _r, _t in dry.transitions] == [(8, "Ano de fabricação")]
    assert dry.valid == 5 and not dry.committed

    # One corrected pass: the clerk fixes the three rows and decides the two flagged ones.
    rows[1]["operator.name"] = "João Hiperlink"
    rows[2]["operator.phone"] = "(65) 99999-1111"
    rows[3].update(values_for(3, today), **{"operator.cpf": cpf_leading_zero(3), "operator.cnh_number": cnh_leading_zero(3),
                                            "vehicle.renavam": renavam_leading_zero(3)})
    _sheet(path, columns, rows, extra="Observações")
    with app.app_context():
        muni = Municipality.query.one()
        refused = run_import(muni, str(path), "xlsx", path.name, commit=True)  # decisions not taken yet
        assert refused.clean and not refused.committed and refused.undecided_lines == {6, 7}
        assert Permit.query.count() == 0
        done = run_import(muni, str(path), "xlsx", path.name, commit=True, accept={6, 7},
                          act="Decreto nº 12/2026", act_until=today + timedelta(days=365))
        db.session.commit()  # as the command or the job's unit does
        assert done.committed and done.written["permit"] == 8 and done.written["operator"] == 7
        padded = Operator.query.filter_by(cpf=cpf_leading_zero(0)).one()
        padded_id = padded.id
        assert padded.cnh_number == cnh_leading_zero(0) and Vehicle.query.filter_by(renavam=renavam_leading_zero(0)).count() == 1
        attached = Permit.query.filter_by(number=rows[5]["permit.number"]).one()
        assert attached.holder_operator.name == "Maria Já Cadastrada"  # accepted: linked, the registered name kept
        transition = PermitTransition.query.one()
        assert transition.permit.number == rows[6]["permit.number"] and transition.requirement_id == "sap.req.idade_veiculo"
        assert (transition.kind, transition.act) == ("ato", "Decreto nº 12/2026")
        # The phone learns it with the permit (no personal data), and the roadside verdict follows it.
        from server.modules.fieldsync.field_data import permit_rows
        until = (today + timedelta(days=365))
        field = {r["number"]: r for r in permit_rows(muni.id)}
        assert field[rows[6]["permit.number"]]["transitions"] == [{
            "r": "sap.req.idade_veiculo", "l": "Moto com no máximo 3 anos de uso", "u": until.isoformat(),
            "t": f"prazo de adequação até {until.strftime('%d/%m/%Y')} (Decreto nº 12/2026)"}]
        assert "transitions" not in field[rows[0]["permit.number"]]
        transition_permit_id = transition.permit_id
        # Issuing a new permit still applies the law in full: the same vehicle is refused by the form's check.
        from server.modules.permits.rule_checks import registry_problems
        old = {"plate": "ABC1D23", "year_manufacture": today.year - 9, "engine_cc": 150}
        assert "art. 5º" in " ".join(registry_problems(muni, "vehicle", old, today)["year_manufacture"])

    # Re-sent with corrections: listed, applied only on confirmation, audited.
    rows[0]["operator.address"] = "Rua Nova, 200"
    rows[0]["vehicle.engine_cc"] = "160"
    _sheet(path, columns, rows)
    with app.app_context():
        muni = Municipality.query.one()
        again = run_import(muni, str(path), "xlsx", path.name, commit=True, accept=True)
        db.session.commit()  # as the command or the job's unit does
        assert again.committed and again.written["permit"] == 0 and again.existing == 8
        # Line 7 was linked to the registered person: her registered data differs from the row's too.
        assert {c[0] for c in again.changes} == {2, 7}
        assert {(c[2], c[3], c[4]) for c in again.changes if c[0] == 2} == {("Endereço", "Rua 0, 10", "Rua Nova, 200"),
                                                               ("Cilindrada (cc)", "150", "160")}
        assert Operator.query.filter_by(cpf=cpf_leading_zero(0)).one().address == "Rua 0, 10"  # not confirmed
        confirmed = run_import(muni, str(path), "xlsx", path.name, commit=True, accept=True, apply_changes=True)
        db.session.commit()  # as the command or the job's unit does
        assert confirmed.updated == {"permit": 0, "operator": 2, "vehicle": 1}
        assert Operator.query.filter_by(cpf=cpf_leading_zero(0)).one().address == "Rua Nova, 200"
        audit = AuditLog.query.filter_by(action="update", entity="operator", entity_id=str(padded_id)).one()
        assert audit.after == {"address": "Rua Nova, 200"} and audit.before == {"address": "Rua 0, 10"}
        assert PermitTransition.query.count() == 1  # not recorded twice
        last = run_import(muni, str(path), "xlsx", path.name)
        assert last.changes == [] and last.clean
    assert runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "adm.sapezal",
                               "--name", "Adm", "--password", "senha-forte-123"]).exit_code == 0
    from helpers import login
    client = app.test_client()
    login(client, "adm.sapezal", "senha-forte-123")
    page = client.get(f"/bo/permissoes/{transition_permit_id}").get_data(as_text=True)
    assert "Exigências em transição" in page and "Decreto nº 12/2026" in page and "art. 5º" in page


@pytest.mark.db
def test_template_sets_identifier_columns_to_text(app, runner, tmp_path):
    _setup(runner)
    with app.app_context():
        muni = Municipality.query.one()
        columns = columns_for(muni)
        data = template_xlsx(muni)
    path = tmp_path / "modelo.xlsx"
    path.write_bytes(data)
    sheet = load_workbook(path)["Cadastro"]
    keys = [c.key for c in columns]
    for key in ("operator.cpf", "operator.cnh_number", "vehicle.renavam"):
        column = keys.index(key) + 1
        assert sheet.cell(row=2, column=column).number_format == "@"
    assert sheet.cell(row=2, column=keys.index("operator.name") + 1).number_format == "General"


@pytest.mark.db
def test_scientific_notation_and_missing_column_in_one_pass(app, runner, tmp_path):
    _setup(runner)
    today = local_today()
    with app.app_context():
        columns = [c for c in columns_for(Municipality.query.one()) if c.key != "vehicle.chassis"]
    row = values_for(0, today)
    row["vehicle.renavam"] = "1,23457E+10"
    path = tmp_path / "cadastro.csv"
    from registry_import_data import write_csv
    write_csv(path, columns, [row])
    with app.app_context():
        result = run_import(Municipality.query.one(), str(path), "csv", path.name)
    found = {(line, column): m for line, column, m in result.errors}
    assert "notação científica" in found[(2, "RENAVAM")]
    assert "ausente" in found[(1, "Chassi")] and (2, "Chassi") not in found
    assert not result.clean


def test_server_reevaluation_follows_the_transition_like_the_phone(app):
    """The twin of tests/js/fieldapp_transitions.test.mjs: same input, same output."""
    from datetime import date

    from server.modules.registry.transition_models import with_transitions

    result = {"failed": [{"requirement": "sap.req.idade_veiculo", "infractions": ["sap.inf.veiculo"]},
                         {"requirement": "sap.req.capacete", "infractions": ["sap.inf.capacete"]}],
              "infractions": [{"id": "sap.inf.veiculo", "triggered_by": ["sap.req.idade_veiculo"]},
                              {"id": "sap.inf.capacete", "triggered_by": ["sap.req.capacete"]},
                              {"id": "sap.inf.geral", "triggered_by": ["sap.req.idade_veiculo", "sap.req.capacete"]}]}
    until = PermitTransition(requirement_id="sap.req.idade_veiculo", kind="ato", act="Decreto nº 12/2026",
                             until=date(2027, 3, 31))
    out = with_transitions(result, [until], date(2026, 12, 5))
    assert [i["id"] for i in out["infractions"]] == ["sap.inf.capacete", "sap.inf.geral"]
    assert out["infractions"][1]["triggered_by"] == ["sap.req.capacete"]
    assert out["failed"][0] == {"requirement": "sap.req.idade_veiculo", "infractions": [],
                                "transition": "prazo de adequação até 31/03/2027 (Decreto nº 12/2026)"}
    assert with_transitions(result, [until], date(2027, 4, 1)) is result  # over: the law in full
