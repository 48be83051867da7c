"""The writing half of a registry import (importer.py checks the rows and decides what is written):
the valid new rows inserted in batches of BATCH (Core statements, bounded memory, ids read back by
natural key), the rows whose permit is already registered compared with it field by field
(ExistingRows), and — on confirmation — those differences applied, each audited (apply_diffs)."""
from datetime import date

from sqlalchemy import insert, select

from ...core.audit import record
from ...extensions import db
from ..credentials.operations import append_statuses
from ..registry.models import Company, Operator, Permit, PermitStatusChange, Vehicle, permit_drivers, utcnow
from ..registry.transition_models import PermitTransition
from .columns import holder_is_company, permit_kind

BATCH = 500

# What a re-import may change on a permit already registered (status, holder and vehicle have
# their own acts: the permit page's actions, transfer, substitution).
UPDATABLE = {
    "permit": ("issued_on", "valid_from", "valid_until", "taxpayer_number", "ponto_id"),
    "operator": ("name", "birth_date", "cnh_number", "cnh_category", "cnh_first_issue_date", "cnh_expiry",
                 "address", "residence_since", "phone"),
    "vehicle": ("renavam", "chassis", "make", "model", "year_manufacture", "engine_cc"),
}


def same_keys(rows):
    """One executemany needs the same keys in every row: optional fields left out become None."""
    keys = set().union(*rows)
    return [{k: row.get(k) for k in keys} for row in rows]


class Writer:
    """Batched inserts of the valid new rows (Core statements; ids read back by natural key)."""

    def __init__(self, muni, state, result, file_name, transitions):
        self.muni, self.state, self.result = muni, state, result
        self.company_held, self.kind = holder_is_company(muni), permit_kind(muni)
        self.reason = f"Importação do cadastro existente ({file_name})"
        self.transitions = transitions
        self.batch = []

    def add(self, out, failures):
        self.batch.append((out, failures))
        if len(self.batch) >= BATCH:
            self.flush()

    def _insert_new(self, model, key, rows, ids):
        fresh, seen = [], set()
        for row in rows:
            if row[key] not in ids and row[key] not in seen:
                seen.add(row[key])
                fresh.append({**row, "municipality_id": self.muni.id})
        if fresh:
            db.session.execute(insert(model), same_keys(fresh))
            column = getattr(model, key)
            ids.update(db.session.execute(select(column, model.id).where(
                model.municipality_id == self.muni.id, column.in_([r[key] for r in fresh]))).all())
        return len(fresh)

    def flush(self):
        if not self.batch:
            return
        state, written = self.state, self.result.written
        outs = [o for o, _ in self.batch]
        if self.company_held:
            written["company"] += self._insert_new(Company, "cnpj", [o["company"] for o in outs], state.companies)
            for o in outs:
                o["operator"]["company_id"] = state.companies[o["company"]["cnpj"]]
        written["operator"] += self._insert_new(Operator, "cpf", [o["operator"] for o in outs], state.operators)
        written["vehicle"] += self._insert_new(Vehicle, "plate", [o["vehicle"] for o in outs], state.vehicles)
        now, permits = utcnow(), []
        for o in outs:
            p = o["permit"]
            holder_op = None if self.company_held else state.operators[o["operator"]["cpf"]]
            permits.append({**p, "municipality_id": self.muni.id, "kind": self.kind, "status_changed_at": now,
                            "holder_operator_id": holder_op, "vehicle_id": state.vehicles[o["vehicle"]["plate"]],
                            "holder_company_id": state.companies[o["company"]["cnpj"]] if self.company_held else None})
        db.session.execute(insert(Permit), same_keys(permits))
        numbers = [p["number"] for p in permits]
        permit_ids = dict(db.session.execute(select(Permit.number, Permit.id).where(
            Permit.municipality_id == self.muni.id, Permit.number.in_(numbers))).all())
        db.session.execute(insert(PermitStatusChange), [
            {"permit_id": permit_ids[p["number"]], "from_status": None, "to_status": p["status"], "action": "import",
             "at": now, "reason": self.reason, "valid_until": p["valid_until"]} for p in permits])
        # What credentials.operations.on_permit_status_changed appends for an issued permit: the
        # phones' status list learns every imported permit (bulk here, the signal is per row).
        append_statuses(self.muni.id, [("permit", p["number"], p["status"]) for p in permits])
        if self.company_held:
            db.session.execute(insert(permit_drivers), [
                {"permit_id": permit_ids[o["permit"]["number"]], "operator_id": state.operators[o["operator"]["cpf"]]}
                for o in outs])
        rows = [self._transition(permit_ids[o["permit"]["number"]], f, now) for o, failures in self.batch for f in failures]
        if rows:
            db.session.execute(insert(PermitTransition), rows)
        state.permits.update(permit_ids)
        state.written.update(numbers)
        state.vehicles_in_use.update(p["vehicle_id"] for p in permits)
        written["permit"] += len(permits)
        self.batch = []

    def _transition(self, permit_id, failure, now):
        kind, act, until = self.transitions.of(failure)
        return {"municipality_id": self.muni.id, "permit_id": permit_id, "requirement_id": failure["requirement"],
                "label": failure["label"][:300], "citation": failure["citation"][:200], "kind": kind,
                "act": act[:200] if act else None, "until": until, "source": self.reason[:200], "recorded_at": now}

    def add_missing_transitions(self, permit_id, failures):
        known = {r for (r,) in db.session.execute(
            select(PermitTransition.requirement_id).where(PermitTransition.permit_id == permit_id))}
        rows = [self._transition(permit_id, f, utcnow()) for f in failures if f["requirement"] not in known]
        if rows:
            db.session.execute(insert(PermitTransition), rows)


def shown_value(value):
    if value is None:
        return ""
    if isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    return str(value)


class ExistingRows:
    """A row whose permit number is already registered: compared with the registry, field by field."""

    def __init__(self, muni, state, headers):
        self.muni, self.state, self.headers = muni, state, headers
        self.ponto_names = {p.id: p.name for p in state.pontos.values()}

    def compare(self, row, result):
        """[(entity object, field, new value)] of the differences; the row's errors when its
        status, holder or plate differ (those have their own acts)."""
        permit = db.session.get(Permit, row.existing_id)
        out = row.out
        if out.get("permit") and out["permit"]["status"] != permit.status:
            row.error("permit.status", f"Situação diferente da cadastrada ({permit.status}): suspensão, cassação e "
                                       "demais mudanças de situação são feitas na página da permissão, com o motivo.")
        person = permit.holder_operator or permit.main_driver
        if out.get("operator") and person is not None and out["operator"]["cpf"] != person.cpf:
            row.error("operator.cpf", "CPF diferente do titular cadastrado nesta permissão: a transferência é feita "
                                      "na página da permissão.")
        if out.get("vehicle") and permit.vehicle is not None and out["vehicle"]["plate"] != permit.vehicle.plate:
            row.error("vehicle.plate", f"Placa diferente da cadastrada ({permit.vehicle.plate}): a substituição do "
                                       "veículo é feita na página da permissão.")
        if row.errors or any(out.get(e) is None for e in ("permit", "operator", "vehicle")):
            return []
        diffs = []
        for entity, obj in (("permit", permit), ("operator", person), ("vehicle", permit.vehicle)):
            if obj is None:
                continue
            for name in UPDATABLE[entity]:
                if name not in out[entity]:
                    continue  # a blank optional cell leaves the registry's value alone
                new, old = out[entity][name], getattr(obj, name)
                if new != old:
                    diffs.append((obj, entity, name, new))
                    key = "permit.ponto" if name == "ponto_id" else f"{entity}.{name}"
                    before = self.ponto_names.get(old, "") if name == "ponto_id" else shown_value(old)
                    after = self.ponto_names.get(new, "") if name == "ponto_id" else shown_value(new)
                    result.changes.append((row.line, permit.number, self.headers.get(key, key), before, after))
        return diffs


def apply_diffs(diffs, muni, actor, reason, updated):
    """Sets ExistingRows' differences on their objects, one audited update per object; counts them
    in `updated` by entity."""
    by_object = {}
    for obj, entity, name, new in diffs:
        by_object.setdefault((entity, obj.id), (obj, {}))[1][name] = new
    for (entity, oid), (obj, fields) in by_object.items():
        before = {k: getattr(obj, k) for k in fields}
        for k, v in fields.items():
            setattr(obj, k, v)
        record("update", entity, oid, before, fields, reason=reason, municipality_id=muni.id, actor=actor)
        updated[entity] += 1
