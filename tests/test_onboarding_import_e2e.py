"""Done-when of issue 21: from an empty database, a municipality and its administrator by the CLI,
its import template filled with good and bad rows, the dry-run report, the commit, a re-import that
changes nothing, a crachá issued for an imported permit and verified."""
import csv
import io
import json
from datetime import timedelta

from sqlalchemy import func, select

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.core.validation import cnh_number_is_valid, cpf_check_digits
from server.extensions import db
from server.modules.accounts.models import User
from server.modules.credentials.models import IssuerKey
from server.modules.registry.models import Municipality, Operator, Permit, PermitStatusChange, Vehicle


def _cpf(i):
    return cpf_check_digits(f"{300000000 + i:09d}")


def _cnh(i):
    base = f"{500000000 + i:09d}"
    return next(f"{base}{dv:02d}" for dv in range(100) if cnh_number_is_valid(f"{base}{dv:02d}"))


def _renavam(i):
    base = [int(d) for d in f"{1000000000 + i:010d}"]
    total = sum(d * w for d, w in zip(base, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    return "".join(map(str, base)) + str((total * 10) % 11 % 10)


def good_row(header, i, today):
    """A row Sapezal's law accepts: a 150 cc motorcycle of this year, a driver of 35 with 15 years of CNH."""
    values = {
        "Número do alvará": f"{i + 1:03d}/{today.year}", "Situação": "ativo",
        "Data de emissão": (today - timedelta(days=30)).strftime("%d/%m/%Y"),
        "Início da validade": (today - timedelta(days=30)).strftime("%d/%m/%Y"),
        "Validade": (today + timedelta(days=300)).strftime("%d/%m/%Y"),
        "Inscrição municipal (cadastro de contribuintes)": f"{1000 + i}-1", "Ponto": "",
        "Nome do titular": f"Titular Importado {i}", "CPF do titular": _cpf(i),
        "Data de nascimento": (today - timedelta(days=35 * 365)).strftime("%d/%m/%Y"),
        "Número da CNH": _cnh(i), "Categoria da CNH": "A",
        "Primeira habilitação": (today - timedelta(days=15 * 365)).strftime("%d/%m/%Y"),
        "Validade da CNH": (today + timedelta(days=900)).strftime("%d/%m/%Y"),
        "Endereço": f"Rua {i}, 10", "Reside no município desde": (today - timedelta(days=10 * 365)).strftime("%d/%m/%Y"),
        "Telefone": "(65) 99999-0000",
        "Placa": f"QIM{i % 10}A{i:02d}", "RENAVAM": _renavam(i), "Chassi": f"9C2KC1670KR{i:06d}",
        "Marca": "Honda", "Modelo": "CG 160 Fan", "Ano de fabricação": str(today.year), "Cilindrada (cc)": "150",
    }
    assert set(values) == set(header), set(header) ^ set(values)
    return [values[h] for h in header]


def _write_csv(path, header, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle, delimiter=";")
        writer.writerow(header)
        writer.writerows(rows)


def _count(app, model):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def test_empty_database_to_verified_badge(app, runner, tmp_path):
    ok = runner.invoke(args=["municipality", "create", "--ibge", "5107875", "--name", "Sapezal", "--uf", "MT",
                             "--pack", "sapezal-lei-125-1999", "--public-base-url", "http://localhost:5000"])
    assert ok.exit_code == 0, ok.output
    ok = runner.invoke(args=["users", "create-admin", "--municipality", "sapezal", "--username", "admin.sapezal",
                             "--name", "Administradora de Sapezal", "--password", "senha-forte-123"])
    assert ok.exit_code == 0, ok.output
    with app.app_context():
        muni = Municipality.query.one()
        assert muni.regimes == ["federal-base", "sapezal-lei-125-1999"]
        assert IssuerKey.query.filter_by(municipality_id=muni.id, status="active").count() == 1
        admin = User.query.filter_by(username="admin.sapezal").one()
        assert (admin.role, admin.municipality_id) == ("admin", muni.id) and admin.check_password("senha-forte-123")

    template = tmp_path / "modelo.csv"
    assert runner.invoke(args=["registry-import", "template", "--municipality", "sapezal", str(template)]).exit_code == 0
    header = next(csv.reader(io.StringIO(template.read_text(encoding="utf-8-sig")), delimiter=";"))
    assert "Inscrição municipal (cadastro de contribuintes)" in header and "CPF do titular" in header
    today = local_today()
    rows = [good_row(header, i, today) for i in range(5)]
    small = good_row(header, 5, today)
    small[header.index("Cilindrada (cc)")] = "100"          # line 7: under art. 5º's 125 cc: in transition
    bad_cpf = good_row(header, 6, today)
    bad_cpf[header.index("CPF do titular")] = "123.456.789-00"  # line 8
    bad_date = good_row(header, 7, today)
    bad_date[header.index("Data de emissão")] = "31/02/2025"    # line 9
    data = tmp_path / "cadastro.csv"
    _write_csv(data, header, rows + [small, bad_cpf, bad_date])

    report = tmp_path / "erros.csv"
    dry = runner.invoke(args=["registry-import", "run", "--municipality", "sapezal", "--report", str(report), str(data)])
    assert dry.exit_code == 0, dry.output
    errors = list(csv.reader(io.StringIO(report.read_text(encoding="utf-8-sig")), delimiter=";"))[1:]
    by_line = {}
    for line, column, message in errors:
        by_line.setdefault(int(line), []).append((column, message))
    assert sorted(by_line) == [8, 9]
    # An existing permit below art. 5º is recorded as it is, with its transition, not refused.
    assert "linha 7, Cilindrada (cc): em transição (sem prazo definido)" in dry.output and "art. 5º" in dry.output
    assert [c for c, _ in by_line[8]] == ["CPF do titular"]
    assert [c for c, _ in by_line[9]] == ["Data de emissão"]
    assert _count(app, Permit) == 0 and _count(app, Operator) == 0  # a dry run writes nothing

    refused = runner.invoke(args=["registry-import", "run", "--municipality", "sapezal", "--commit", str(data)])
    assert refused.exit_code != 0 and "Nada foi gravado" in refused.output
    assert _count(app, Permit) == 0 and _count(app, Vehicle) == 0

    done = runner.invoke(args=["registry-import", "run", "--municipality", "sapezal", "--commit", "--only-valid", str(data)])
    assert done.exit_code == 0, done.output
    counts = {m: _count(app, m) for m in (Permit, Operator, Vehicle, PermitStatusChange)}
    assert counts == {Permit: 6, Operator: 6, Vehicle: 6, PermitStatusChange: 6}
    with app.app_context():
        imported = Permit.query.filter_by(number=f"003/{today.year}").one()
        assert imported.holder_operator.cpf == _cpf(2) and imported.vehicle.plate == "QIM2A02"
        assert imported.taxpayer_number == "1002-1" and imported.status == "ativo"
        audit = AuditLog.query.filter_by(action="registry_import").all()
        assert len(audit) == 1 and audit[0].after["created"]["permit"] == 6

    again = runner.invoke(args=["registry-import", "run", "--municipality", "sapezal", "--commit", "--only-valid", str(data)])
    assert again.exit_code == 0, again.output
    assert {m: _count(app, m) for m in counts} == counts
    with app.app_context():
        assert AuditLog.query.filter_by(action="registry_import").count() == 2
        assert AuditLog.query.filter_by(action="registry_import").order_by(AuditLog.id.desc()).first() \
            .after["created"] == {"permit": 0, "operator": 0, "vehicle": 0, "company": 0}

    out = tmp_path / "cracha"
    issued = runner.invoke(args=["credentials", "issue", "--municipality", "sapezal", "--permit", f"003/{today.year}",
                                 "--out", str(out)])
    assert issued.exit_code == 0, issued.output
    payload = next(p for p in out.iterdir() if p.suffix == ".txt").read_text().strip()
    verdict = runner.invoke(args=["credentials", "verify", payload])
    assert verdict.exit_code == 0, verdict.output
    result = json.loads(verdict.output)
    assert result["reason_code"] == "ok", result
