"""LGPD art. 18 (II confirmação/acesso, V portabilidade): every datum held about an operator or
auxiliary driver. The tables are found from the schema, not listed by hand, so a table added
later that points at the operator (or at a row about them) is exported without touching this file:
the operator's row; every row of a table with a foreign key to it; every row pointing at one of
those (a permit's crachás and history, an auto's case and payments…), three levels down; the
vehicles and companies their permits name; the audit log about them (who viewed the full CPF);
and the photo file."""
import io
import json
import zipfile
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from fpdf import FPDF
from sqlalchemy import or_, select

from ...core.audit import AuditLog
from ...core.audit_labels import action_label, entity_label, field_label
from ...extensions import db
from ..autos.notification_pdf import register_fonts
from ..registry.photos import read_operator_photo
from .rectification import trail_rows

DEPTH = 3
# Rows about the operator that do not point at them but that their permits point at.
NAMED_BY_PERMIT = ("vehicle", "company")
# Never exported: secrets that are hashes of credentials (useless to the titular, risky to hand out).
SECRET_COLUMNS = {"password_hash", "token_hash", "code_hash", "session_hash", "private_key_pem"}


def _jsonable(value):
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return None
    return value


def _rows(table, column, ids):
    if not ids:
        return []
    found = []
    ids = sorted(ids)
    for start in range(0, len(ids), 500):
        query = select(table).where(table.c[column].in_(ids[start:start + 500]))
        found += [dict(r._mapping) for r in db.session.execute(query)]
    return found


def collect(operator):
    """{table name: [row dicts]} of everything held about the operator."""
    tables = {t.name: t for t in db.metadata.sorted_tables}
    out = {"operator": _rows(tables["operator"], "id", {operator.id})}
    frontier = {"operator": out["operator"]}
    for _ in range(DEPTH):
        found = {}
        for table in tables.values():
            for fk in table.foreign_keys:
                parent = fk.column.table.name
                if parent in frontier and table.name != "audit_log":
                    ids = {r[fk.column.name] for r in frontier[parent]}
                    rows = _rows(table, fk.parent.name, ids)
                    if rows:
                        found.setdefault(table.name, []).extend(rows)
        frontier = {}
        for name, rows in found.items():
            known = out.setdefault(name, [])
            for row in rows:
                if row not in known:
                    known.append(row)
                    frontier.setdefault(name, []).append(row)
        if not frontier:
            break
    permits = out.get("permit", [])
    for name, column in (("vehicle", "vehicle_id"), ("company", "holder_company_id")):
        rows = _rows(tables[name], "id", {p[column] for p in permits if p.get(column)})
        if rows:
            out.setdefault(name, []).extend(r for r in rows if r not in out.get(name, []))
    user_ids = [u["id"] for u in out.get("user", [])]
    audit = AuditLog.__table__
    conditions = [(audit.c.entity == "operator") & (audit.c.entity_id == str(operator.id))]
    if user_ids:
        conditions.append(audit.c.actor_id.in_(user_ids))
    for name in ("permit", "credential", "field_record"):
        ids = [str(r["id"]) for r in out.get(name, []) if "id" in r]
        if ids:
            conditions.append((audit.c.entity == name) & audit.c.entity_id.in_(ids))
    out["audit_log"] = [dict(r._mapping) for r in db.session.execute(
        select(audit).where(or_(*conditions)).order_by(audit.c.id))]
    return {name: [{k: _jsonable(v) for k, v in row.items() if k not in SECRET_COLUMNS} for row in rows]
            for name, rows in sorted(out.items())}


def bundle(operator, data=None):
    """A zip: dados.json (every row, by table) and the operator's photo file."""
    data = data if data is not None else collect(operator)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("dados.json", json.dumps({"titular": {"nome": operator.name, "cpf": operator.cpf},
                                                   "tabelas": data, "retificacoes": trail_rows(operator)},
                                                  ensure_ascii=False, indent=1))
        photo = read_operator_photo(operator)
        if photo is not None:
            archive.writestr(f"arquivos/foto/{Path(operator.photo_path).name}", photo)
    return out.getvalue()


def pdf(operator, data=None):
    """The same data, readable: one section per table, one block per row (fpdf2)."""
    data = data if data is not None else collect(operator)
    doc = _Doc(format="A4")
    doc.set_auto_page_break(True, margin=15)
    doc.add_page()
    family = "Helvetica" if register_fonts(doc) == "helvetica" else "dejavu"  # the notificação's font, when installed
    doc.set_font(family, size=14)
    doc.multi_cell(0, 8, _safe(f"Dados pessoais mantidos sobre {operator.name}", family))
    doc.set_font(family, size=9)
    doc.multi_cell(0, 5, _safe("Resposta a pedido do titular (LGPD, Lei 13.709/2018, art. 18, II e V). "
                               "O arquivo JSON que acompanha este documento contém os mesmos dados.", family))
    doc.ln(2)
    doc.set_font(family, size=11)
    doc.multi_cell(0, 6, _safe("Correções do cadastro (art. 18, III)", family))
    doc.set_font(family, size=8)
    for row in trail_rows(operator) or [{"quando": "—", "quem": "—", "acao": "nenhuma", "motivo": None, "alteracoes": []}]:
        changes = "; ".join(f"{field_label(c['campo'])}: {c['antes'] or '—'} -> {c['depois'] or '—'}" for c in row["alteracoes"])
        doc.multi_cell(0, 4, _safe(f"{row['quando']} · {row['quem']} · {action_label(row['acao'])}"
                                   f"{' · Motivo: ' + row['motivo'] if row['motivo'] else ''}{': ' + changes if changes else ''}"[:3000], family))
    for name, rows in data.items():
        doc.ln(2)
        doc.set_font(family, size=11)
        doc.multi_cell(0, 6, _safe(f"{entity_label(name)} ({len(rows)})", family))
        doc.set_font(family, size=8)
        for row in rows:
            text = "; ".join(f"{field_label(k)}: {v}" for k, v in row.items() if v not in (None, "", [], {}))
            doc.multi_cell(0, 4, _safe(text[:3000], family))
            doc.ln(1)
    return bytes(doc.output())


def _doc_class():
    class Doc(FPDF):
        def multi_cell(self, w, h, text, **kw):  # every block starts at the left margin, long tokens wrap
            return super().multi_cell(w, h, text, new_x="LMARGIN", new_y="NEXT", wrapmode="CHAR", **kw)
    return Doc


def _Doc(**kw):
    return _doc_class()(**kw)


def _safe(text, family):
    """Core PDF fonts speak Latin-1 only: other characters become '?' there (a TTF font has them)."""
    return text if family != "Helvetica" else text.encode("latin-1", "replace").decode("latin-1")
