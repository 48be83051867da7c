"""Import of an existing registry: every row checked by the registry's own schemas and the law
checks of the forms (registry.schemas, permits.rule_checks), then — on commit — written in one
transaction in batches (bounded memory), matched by natural keys (permit number, CPF, CNPJ,
plate) so importing the same file again changes nothing. Audited as one import entry."""
import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from marshmallow import ValidationError
from sqlalchemy import insert, select

from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import flatten_fields
from ...extensions import db
from ..registry import schemas
from ..registry.models import (OCCUPYING, PERMIT_STATUSES, Company, Operator, Permit, PermitStatusChange, Ponto,
                               Vehicle, permit_drivers, utcnow)
from ..credentials.operations import append_statuses
from ..permits.rule_checks import registry_problems, registry_ruleset
from .columns import holder_is_company, columns_for, header_key, permit_kind
from .reader import read_rows

BATCH = 500
MAX_ERRORS = 50_000
DATE_KEYS = {"permit.issued_on", "permit.valid_from", "permit.valid_until", "operator.birth_date",
             "operator.cnh_first_issue_date", "operator.cnh_expiry", "operator.residence_since"}
STATUS_BY_TEXT = {header_key(s): s for s in PERMIT_STATUSES}


@dataclass
class ImportResult:
    rows: int = 0
    valid: int = 0
    existing: int = 0          # permits already in the registry (same number): left unchanged
    written: dict = field(default_factory=lambda: {"permit": 0, "operator": 0, "vehicle": 0, "company": 0})
    errors: list = field(default_factory=list)   # (line, column header, message)
    error_rows: int = 0
    committed: bool = False
    sha256: str = ""

    @property
    def clean(self):
        return self.error_rows == 0


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _date_text(value):
    """A date cell as ISO text for the schema: dd/mm/aaaa (or aaaa-mm-dd, or a spreadsheet date)."""
    if isinstance(value, date):
        return value.isoformat()
    match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", value)
    if match:
        day, month, year = (int(g) for g in match.groups())
        try:
            return date(year, month, day).isoformat()
        except ValueError:
            return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        return None


class _State:
    """What the registry and the file so far already hold, by natural key (per municipality)."""

    def __init__(self, muni):
        mid = muni.id
        self.permits = {n for (n,) in db.session.execute(select(Permit.number).where(Permit.municipality_id == mid))}
        self.operators = dict(db.session.execute(select(Operator.cpf, Operator.id).where(Operator.municipality_id == mid)).all())
        self.vehicles = dict(db.session.execute(select(Vehicle.plate, Vehicle.id).where(Vehicle.municipality_id == mid)).all())
        self.companies = dict(db.session.execute(select(Company.cnpj, Company.id).where(Company.municipality_id == mid)).all())
        self.vehicles_in_use = {v for (v,) in db.session.execute(
            select(Permit.vehicle_id).where(Permit.municipality_id == mid, Permit.vehicle_id.is_not(None)))}
        self.pontos = {header_key(p.name): p for p in Ponto.query.filter_by(municipality_id=mid)}
        self.ponto_load = {p.id: Permit.query.filter(Permit.ponto_id == p.id, Permit.status.in_(OCCUPYING)).count()
                           for p in self.pontos.values()}
        self.file_numbers, self.file_plates, self.file_cpfs = {}, {}, {}


class RowCheck:
    """Checks one row; returns (errors {column key: [messages]}, parsed entities)."""

    def __init__(self, muni):
        self.muni = muni
        self.today = local_today()
        self.ruleset = registry_ruleset(muni)  # composed once for the whole file
        self.company_held = holder_is_company(muni)
        self.kind = permit_kind(muni)
        self.operator_schema, self.vehicle_schema = schemas.OperatorSchema(), schemas.VehicleSchema()
        self.company_schema = schemas.CompanySchema()
        # Number, dates, validity order and taxpayer number: the permit form's own rules. The ids are
        # resolved from the row's CPF/CNPJ/plate later, so the shape check gets placeholders.
        self.permit_schema = schemas.PermitSchema(only=(
            "number", "issued_on", "valid_from", "valid_until", "taxpayer_number", "holder_operator_id", "vehicle_id"))

    def registered(self, values, state):
        """A row whose permit number is already in the registry is left as it is, unchecked: a
        re-import changes nothing and costs one look-up per row."""
        number = values.get("permit.number")
        return isinstance(number, str) and number.strip().upper() in state.permits \
            and number.strip().upper() not in state.file_numbers

    def check(self, values, state, line):
        errors = {}
        parts = {"permit": {}, "operator": {}, "vehicle": {}, "company": {}}
        for key, value in values.items():
            if value is None:
                continue
            if key in DATE_KEYS:
                iso = _date_text(value)
                if iso is None:
                    errors.setdefault(key, []).append("Data inválida: use dd/mm/aaaa.")
                    continue
                value = iso
            entity, name = key.split(".", 1)
            parts[entity][name] = value if isinstance(value, str) else str(value)
        out = {}
        for entity, schema in (("operator", self.operator_schema), ("vehicle", self.vehicle_schema)):
            out[entity] = self._load(schema, parts[entity], entity, errors)
        if self.company_held:
            out["company"] = self._load(self.company_schema, parts["company"], "company", errors)
        permit_in = {k: v for k, v in parts["permit"].items() if k not in ("status", "ponto")}
        out["permit"] = self._load(self.permit_schema, {**permit_in, "holder_operator_id": 1, "vehicle_id": 1},
                                   "permit", errors)
        status = STATUS_BY_TEXT.get(header_key(parts["permit"].get("status")))
        if status is None and "permit.status" not in errors:
            errors["permit.status"] = ["Situação inválida: use " + ", ".join(PERMIT_STATUSES) + "."]
        for entity in ("operator", "vehicle"):
            data = out.get(entity)
            if data is not None and self.ruleset is not None:
                for fld, messages in registry_problems(self.muni, entity, data, self.today, self.ruleset).items():
                    errors.setdefault(f"{entity}.{fld}", []).extend(messages)
        permit = out.get("permit")
        if permit is not None:
            permit.pop("holder_operator_id", None)
            permit.pop("vehicle_id", None)
            permit["status"] = status
            self._keys(permit, out, parts, state, line, errors)
        return errors, out

    def _load(self, schema, data, entity, errors):
        try:
            return schema.load(data)
        except ValidationError as err:
            for fld, messages in flatten_fields(err.messages).items():
                if f"{entity}.{fld}" not in errors:  # an unreadable date is already said once
                    errors[f"{entity}.{fld}"] = list(messages)
            return None

    def _keys(self, permit, out, parts, state, line, errors):
        number = permit["number"]
        if number in state.file_numbers:
            errors.setdefault("permit.number", []).append(f"Número repetido no arquivo (linha {state.file_numbers[number]}).")
            return
        state.file_numbers[number] = line
        if number in state.permits:
            return  # already in the registry: left as it is
        vehicle = out.get("vehicle")
        if vehicle is not None:
            plate = vehicle["plate"]
            if plate in state.file_plates:
                errors.setdefault("vehicle.plate", []).append(
                    f"Placa repetida no arquivo (linha {state.file_plates[plate]}): um veículo serve a uma permissão.")
            elif state.vehicles.get(plate) in state.vehicles_in_use:
                errors.setdefault("vehicle.plate", []).append("Placa já vinculada a outra permissão neste município.")
            state.file_plates.setdefault(plate, line)
        ponto_name = parts["permit"].get("ponto")
        if ponto_name:
            ponto = state.pontos.get(header_key(ponto_name))
            if ponto is None:
                names = ", ".join(p.name for p in state.pontos.values()) or "nenhum cadastrado"
                errors.setdefault("permit.ponto", []).append(f"Ponto não cadastrado (pontos: {names}).")
            else:
                permit["ponto_id"] = ponto.id
                if permit["status"] in OCCUPYING and not errors:
                    if state.ponto_load[ponto.id] >= ponto.capacity:
                        errors.setdefault("permit.ponto", []).append(f"O ponto {ponto.name} está lotado ({ponto.capacity} vagas).")
                    else:
                        state.ponto_load[ponto.id] += 1


def _same_keys(rows):
    """One executemany needs the same keys in every row: optional fields left out become None."""
    keys = set().union(*rows)
    return [{k: row.get(k) for k in keys} for row in rows]


class _Writer:
    """Batched inserts of the valid new rows (Core statements; ids read back by natural key)."""

    def __init__(self, muni, state, result, file_name):
        self.muni, self.state, self.result = muni, state, result
        self.company_held, self.kind = holder_is_company(muni), permit_kind(muni)
        self.reason = f"Importação do cadastro existente ({file_name})"
        self.batch = []

    def add(self, out):
        self.batch.append(out)
        if len(self.batch) >= BATCH:
            self.flush()

    def _insert_new(self, model, key, rows, ids):
        fresh, seen = [], set()
        for row in rows:
            if row[key] not in ids and row[key] not in seen:
                seen.add(row[key])
                fresh.append({**row, "municipality_id": self.muni.id})
        if fresh:
            db.session.execute(insert(model), _same_keys(fresh))
            column = getattr(model, key)
            ids.update(db.session.execute(select(column, model.id).where(
                model.municipality_id == self.muni.id, column.in_([r[key] for r in fresh]))).all())
        return len(fresh)

    def flush(self):
        if not self.batch:
            return
        state, written = self.state, self.result.written
        if self.company_held:
            written["company"] += self._insert_new(Company, "cnpj", [o["company"] for o in self.batch], state.companies)
            for o in self.batch:
                o["operator"]["company_id"] = state.companies[o["company"]["cnpj"]]
        written["operator"] += self._insert_new(Operator, "cpf", [o["operator"] for o in self.batch], state.operators)
        written["vehicle"] += self._insert_new(Vehicle, "plate", [o["vehicle"] for o in self.batch], state.vehicles)
        now, permits = utcnow(), []
        for o in self.batch:
            p = o["permit"]
            holder_op = None if self.company_held else state.operators[o["operator"]["cpf"]]
            permits.append({**p, "municipality_id": self.muni.id, "kind": self.kind, "status_changed_at": now,
                            "holder_operator_id": holder_op, "vehicle_id": state.vehicles[o["vehicle"]["plate"]],
                            "holder_company_id": state.companies[o["company"]["cnpj"]] if self.company_held else None})
        db.session.execute(insert(Permit), _same_keys(permits))
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
                for o in self.batch])
        state.permits.update(numbers)
        state.vehicles_in_use.update(p["vehicle_id"] for p in permits)
        written["permit"] += len(permits)
        self.batch = []


def run_import(muni, path, kind, file_name, commit=False, only_valid=False, actor=None):
    """Check every row (dry run) or, with commit, write the valid new rows in one transaction:
    refused (nothing written) when any row has an error, unless only_valid. Returns ImportResult.
    Raises reader.FileProblem when the file cannot be read as this municipality's template."""
    columns = columns_for(muni)
    headers = {c.key: c.header for c in columns}
    result = ImportResult(sha256=file_sha256(path))
    state, checker = _State(muni), RowCheck(muni)
    writer = _Writer(muni, state, result, file_name) if commit else None
    try:
        for line, values in read_rows(path, kind, columns):
            result.rows += 1
            if checker.registered(values, state):
                state.file_numbers[values["permit.number"].strip().upper()] = line
                result.valid += 1
                result.existing += 1
                continue
            errors, out = checker.check(values, state, line)
            if errors:
                result.error_rows += 1
                for key, messages in errors.items():
                    for message in messages:
                        if len(result.errors) < MAX_ERRORS:
                            result.errors.append((line, headers.get(key, key), message))
                continue
            result.valid += 1
            if out["permit"]["number"] in state.permits:
                result.existing += 1
            elif writer is not None and (only_valid or result.clean):
                writer.add(out)
        if writer is None or (not result.clean and not only_valid):
            db.session.rollback()
            return result
        writer.flush()
        record("registry_import", "registry_import", result.sha256[:16], None, {
            "file": file_name, "sha256": result.sha256, "rows": result.rows, "valid": result.valid,
            "rows_with_errors": result.error_rows, "already_registered": result.existing,
            "created": dict(result.written), "only_valid": only_valid}, municipality_id=muni.id, actor=actor)
        db.session.commit()
        result.committed = True
        return result
    except BaseException:
        db.session.rollback()
        raise


def error_report_rows(result):
    """Rows of the downloadable error report (line, column, message)."""
    return [(line, column, message) for line, column, message in result.errors]


def stamp():
    return datetime.now().strftime("%Y%m%d-%H%M%S")
