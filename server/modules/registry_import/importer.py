"""Import of an existing registry: every row checked by the registry's own schemas and the law
checks of the forms (registry.schemas, permits.rule_checks), then — on commit — written (writing.py) in one
transaction in batches (bounded memory), matched by natural keys (permit number, CPF, CNPJ,
plate) so importing the same file again changes nothing. Audited as one import entry.

A sheet as clerks have it (issue 36): every error of the file is listed in one pass (a column
missing from the header, every field of every row, the law's checks on whatever parsed);
identifiers that lost their leading zeros are recognised (cells.identifier); unknown columns are
reported and ignored; formula-like text is refused (cells.formula_problem). The existing fleet as it
is: a requirement the law sets for issuing (Sapezal art. 5º, at most 3 years of use) does not
refuse an existing permit: it is recorded with the transition that applies
(registry.transition_models). Some rows wait for a clerk's decision (a known CPF under another
name, an expired CNH): not written until accepted. A permit already in the registry is compared
with its row: the differences are listed and written only on confirmation, each audited."""
import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from marshmallow import ValidationError
from sqlalchemy import select

from ...core.audit import record
from ...core.clock import local_today
from ...core.errors import ApiError, flatten_fields
from ...core.validation import fold
from ...extensions import db
from ..calendar.service import calendar_of
from ..registry import schemas
from ..registry.models import OCCUPYING, PERMIT_STATUSES, Company, Operator, Permit, Ponto, Vehicle
from ..registry.transition_models import transition_text
from ..permits.rule_checks import registry_failures, registry_ruleset
from ..rules.service import composed_for
from .cells import formula_problem, identifier
from .columns import holder_is_company, columns_for, header_key
from .reader import open_rows
from .writing import ExistingRows, Writer, apply_diffs

PROGRESS_EVERY = 250
MAX_ERRORS = 50_000
DATE_KEYS = {"permit.issued_on", "permit.valid_from", "permit.valid_until", "operator.birth_date",
             "operator.cnh_first_issue_date", "operator.cnh_expiry", "operator.residence_since"}
STATUS_BY_TEXT = {header_key(s): s for s in PERMIT_STATUSES}
REQUIRED_EN = "Missing data for required field."
DECISIONS = {"cpf_outro_nome": "CPF já cadastrado com outro nome", "cnh_vencida": "CNH vencida"}


@dataclass
class ImportResult:
    rows: int = 0
    valid: int = 0
    existing: int = 0          # permits already in the registry (same number)
    written: dict = field(default_factory=lambda: {"permit": 0, "operator": 0, "vehicle": 0, "company": 0})
    updated: dict = field(default_factory=lambda: {"permit": 0, "operator": 0, "vehicle": 0})
    errors: list = field(default_factory=list)       # (line, column header, message)
    error_rows: int = 0
    warnings: list = field(default_factory=list)     # (line, column header, message): reported, not refused
    decisions: list = field(default_factory=list)    # (line, column header, kind, message): a clerk decides
    transitions: list = field(default_factory=list)  # (line, column header, requirement, transition)
    changes: list = field(default_factory=list)      # (line, permit number, column header, before, after)
    undecided_lines: set = field(default_factory=set)
    committed: bool = False
    sha256: str = ""

    @property
    def clean(self):
        return self.error_rows == 0

    @property
    def decided(self):
        return not self.undecided_lines


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
        self.permits = dict(db.session.execute(select(Permit.number, Permit.id).where(Permit.municipality_id == mid)).all())
        self.operators = dict(db.session.execute(select(Operator.cpf, Operator.id).where(Operator.municipality_id == mid)).all())
        self.operator_names = dict(db.session.execute(
            select(Operator.cpf, Operator.name).where(Operator.municipality_id == mid)).all())
        self.vehicles = dict(db.session.execute(select(Vehicle.plate, Vehicle.id).where(Vehicle.municipality_id == mid)).all())
        self.companies = dict(db.session.execute(select(Company.cnpj, Company.id).where(Company.municipality_id == mid)).all())
        self.vehicles_in_use = {v for (v,) in db.session.execute(
            select(Permit.vehicle_id).where(Permit.municipality_id == mid, Permit.vehicle_id.is_not(None)))}
        self.pontos = {header_key(p.name): p for p in Ponto.query.filter_by(municipality_id=mid)}
        self.ponto_load = {p.id: Permit.query.filter(Permit.ponto_id == p.id, Permit.status.in_(OCCUPYING)).count()
                           for p in self.pontos.values()}
        self.file_numbers, self.file_plates, self.file_cpfs = {}, {}, {}
        self.written = set()  # permit numbers written by this run


@dataclass
class Row:
    line: int
    errors: dict = field(default_factory=dict)      # column key -> [messages]
    decisions: list = field(default_factory=list)   # (column key, kind, message)
    failures: list = field(default_factory=list)    # registry_failures entries (requirement missed)
    out: dict = field(default_factory=dict)
    number: str | None = None
    existing_id: int | None = None

    def error(self, key, message):
        if message not in self.errors.get(key, []):
            self.errors.setdefault(key, []).append(message)


class RowCheck:
    """Checks one row: every field, then the law's checks on whatever parsed (all in one pass)."""

    def __init__(self, muni, missing_keys=()):
        self.muni = muni
        self.today = local_today()
        self.ruleset = registry_ruleset(muni)  # composed once for the whole file
        self.calendar = calendar_of(muni)      # read once too (a query per row otherwise)
        self.company_held = holder_is_company(muni)
        self.missing_keys = set(missing_keys)  # reported once for the header, not on every row
        self.operator_schema, self.vehicle_schema = schemas.OperatorSchema(), schemas.VehicleSchema()
        self.company_schema = schemas.CompanySchema()
        # Number, dates, validity order and taxpayer number: the permit form's own rules. The ids are
        # resolved from the row's CPF/CNPJ/plate later, so the shape check gets placeholders.
        self.permit_schema = schemas.PermitSchema(only=(
            "number", "issued_on", "valid_from", "valid_until", "taxpayer_number", "holder_operator_id", "vehicle_id"))

    def check(self, values, state, line):
        row = Row(line)
        parts = {"permit": {}, "operator": {}, "vehicle": {}, "company": {}}
        for key, value in values.items():
            if value is None:
                continue
            problem = formula_problem(value)
            if problem:
                row.error(key, problem)
                continue
            value, problem = identifier(key, value)
            if problem:
                row.error(key, problem)
                continue
            if key in DATE_KEYS:
                iso = _date_text(value)
                if iso is None:
                    row.error(key, "Data inválida: use dd/mm/aaaa.")
                    continue
                value = iso
            entity, name = key.split(".", 1)
            parts[entity][name] = value if isinstance(value, str) else str(value)
        partial = {}
        for entity, schema in (("operator", self.operator_schema), ("vehicle", self.vehicle_schema)):
            row.out[entity], partial[entity] = self._load(schema, parts[entity], entity, row)
        if self.company_held:
            row.out["company"], _ = self._load(self.company_schema, parts["company"], "company", row)
        permit_in = {k: v for k, v in parts["permit"].items() if k not in ("status", "ponto")}
        permit, permit_partial = self._load(self.permit_schema, {**permit_in, "holder_operator_id": 1, "vehicle_id": 1},
                                            "permit", row)
        status = STATUS_BY_TEXT.get(header_key(parts["permit"].get("status")))
        if status is None and "permit.status" not in row.errors and "permit.status" not in self.missing_keys:
            row.error("permit.status", "Situação inválida: use " + ", ".join(PERMIT_STATUSES) + ".")
        if self.ruleset is not None:
            for entity in ("operator", "vehicle"):
                # The law's checks run on what parsed, even when another field of the row did not.
                for failure in registry_failures(self.muni, entity, partial[entity], self.today, self.ruleset,
                                                 self.calendar):
                    row.failures.append({**failure, "fields": [f"{entity}.{f}" for f in failure["fields"]]})
        number = (permit or permit_partial).get("number") or (parts["permit"].get("number") or "").strip().upper()
        row.number = number or None
        if permit is not None:
            permit.pop("holder_operator_id", None)
            permit.pop("vehicle_id", None)
            permit["status"] = status
        row.out["permit"] = permit
        self._decisions(row, partial["operator"], state)
        self._keys(row, parts, state)
        return row

    def _load(self, schema, data, entity, row):
        """(loaded dict or None, the fields that parsed)."""
        try:
            loaded = schema.load(data)
            return loaded, loaded
        except ValidationError as err:
            for fld, messages in flatten_fields(err.messages).items():
                key = f"{entity}.{fld}"
                if key in row.errors or key in self.missing_keys:
                    continue  # an unreadable cell is said once; a missing column once for the file
                for message in messages:
                    row.error(key, "Campo obrigatório vazio." if message == REQUIRED_EN else message)
            return None, dict(err.valid_data or {})

    def _decisions(self, row, operator, state):
        expiry = operator.get("cnh_expiry")
        if isinstance(expiry, date) and expiry < self.today:
            row.decisions.append(("operator.cnh_expiry", "cnh_vencida",
                                  f"CNH vencida em {expiry.strftime('%d/%m/%Y')}: aceite só se a prefeitura já "
                                  "conferiu a renovação (CTB art. 159, § 10: condução com CNH vencida)."))
        cpf, name = (row.out.get("operator") or {}).get("cpf"), (row.out.get("operator") or {}).get("name")
        if not cpf or not name:
            return
        known = state.operator_names.get(cpf)
        if known is not None and fold(known) != fold(name):
            holder = self._holder_cpf(row, state)
            if holder != cpf:  # the holder of this very permit renamed: a listed change, not a decision
                row.decisions.append(("operator.cpf", "cpf_outro_nome",
                                      f"CPF já cadastrado em nome de “{known}”: aceitar vincula esta linha à pessoa "
                                      "cadastrada (o nome cadastrado fica)."))
        earlier = state.file_cpfs.get(cpf)
        if earlier is not None and fold(earlier[1]) != fold(name):
            row.error("operator.cpf", f"CPF repetido no arquivo com outro nome (linha {earlier[0]}: “{earlier[1]}”).")
        state.file_cpfs.setdefault(cpf, (row.line, name))

    def _holder_cpf(self, row, state):
        pid = state.permits.get(row.number)
        if pid is None:
            return None
        permit = db.session.get(Permit, pid)
        person = permit.holder_operator or permit.main_driver
        return person.cpf if person is not None else None

    def _keys(self, row, parts, state):
        number = row.number
        if number is None:
            return
        if number in state.file_numbers:
            row.error("permit.number", f"Número repetido no arquivo (linha {state.file_numbers[number]}).")
            return
        state.file_numbers[number] = row.line
        if number in state.permits and number not in state.written:
            row.existing_id = state.permits[number]
            return
        vehicle = row.out.get("vehicle")
        plate = vehicle["plate"] if vehicle else None
        if plate is not None:
            if plate in state.file_plates:
                row.error("vehicle.plate", f"Placa repetida no arquivo (linha {state.file_plates[plate]}): "
                                           "um veículo serve a uma permissão.")
            elif state.vehicles.get(plate) in state.vehicles_in_use:
                row.error("vehicle.plate", "Placa já vinculada a outra permissão neste município.")
            state.file_plates.setdefault(plate, row.line)
        ponto_name = parts["permit"].get("ponto")
        if ponto_name:
            ponto = state.pontos.get(header_key(ponto_name))
            if ponto is None:
                names = ", ".join(p.name for p in state.pontos.values()) or "nenhum cadastrado"
                row.error("permit.ponto", f"Ponto não cadastrado (pontos: {names}).")
            elif row.out.get("permit") is not None:
                row.out["permit"]["ponto_id"] = ponto.id
                if row.out["permit"]["status"] in OCCUPYING and not row.errors:
                    if state.ponto_load[ponto.id] >= ponto.capacity:
                        row.error("permit.ponto", f"O ponto {ponto.name} está lotado ({ponto.capacity} vagas).")
                    else:
                        state.ponto_load[ponto.id] += 1


class Transitions:
    """Which transition an existing permit's missed requirement gets: the law's own adaptation
    period when one runs on the import day, else the act the clerk recorded with the import (its
    prazo de adequação), else none defined."""

    def __init__(self, muni, act=None, act_until=None):
        self.act, self.act_until = (act or "").strip() or None, act_until
        try:
            composed = composed_for(muni)
            self.periods = {d["id"]: d.get("label_pt") or d["id"] for d in composed.deadlines}
        except ApiError:
            self.periods = {}

    def of(self, failure):
        if failure.get("grace"):
            return "lei", self.periods.get(failure["grace"], failure["grace"]), None
        if self.act:
            return "ato", self.act, self.act_until
        return "sem_prazo", None, None

    def text(self, failure):
        return transition_text(*self.of(failure))


def _accepted(accept, line):
    return accept is True or line in (accept or ())


def run_import(muni, path, kind, file_name, commit=False, only_valid=False, actor=None, accept=(),
               apply_changes=False, act=None, act_until=None, progress=None):
    """Check every row (dry run) or, with commit, stage in one transaction: the valid new rows, the
    transitions of the requirements they miss and — with apply_changes — the differences of the
    permits already registered. Refused (nothing written) when a row has an error or waits for a
    decision (`accept`: the accepted lines, or True for all), unless only_valid, which leaves those
    rows out. `progress(rows read)` is called every PROGRESS_EVERY rows (the job's progress bar).
    Returns ImportResult (`committed`: the rows are staged, for the caller's unit of work — the
    job, the command — to commit). Raises reader.FileProblem when the file cannot be read."""
    columns = columns_for(muni)
    headers = {c.key: c.header for c in columns}
    result = ImportResult(sha256=file_sha256(path))
    header, rows = open_rows(path, kind, columns)
    for text in header.unknown:
        result.warnings.append((1, text, "Coluna desconhecida: ignorada (não faz parte do modelo deste município)."))
    for column in header.missing:
        result.errors.append((1, column.header, "Coluna obrigatória ausente no cabeçalho: acrescente-a (veja o modelo)."))
    state, checker = _State(muni), RowCheck(muni, [c.key for c in header.missing])
    transitions = Transitions(muni, act, act_until)
    writer = Writer(muni, state, result, file_name, transitions) if commit else None
    existing = ExistingRows(muni, state, headers)
    pending_diffs = []
    try:
        for line, values in rows:
            result.rows += 1
            if progress is not None and result.rows % PROGRESS_EVERY == 0:
                progress(result.rows)
            row = checker.check(values, state, line)
            diffs = existing.compare(row, result) if row.existing_id is not None else []
            if row.errors or header.missing:
                result.error_rows += 1
                for key, messages in row.errors.items():
                    for message in messages:
                        if len(result.errors) < MAX_ERRORS:
                            result.errors.append((line, headers.get(key, key), message))
                continue
            result.valid += 1
            for key, kind_, message in row.decisions:
                result.decisions.append((line, headers.get(key, key), kind_, message))
            for failure in row.failures:
                result.transitions.append((line, headers.get(failure["fields"][0], failure["fields"][0]),
                                           failure["message"], transitions.text(failure)))
            waiting = row.decisions and not _accepted(accept, line)
            if waiting:
                result.undecided_lines.add(line)
            if row.existing_id is not None:
                result.existing += 1
                if writer is not None and not waiting:
                    pending_diffs.extend(diffs)
                    writer.add_missing_transitions(row.existing_id, row.failures)
                continue
            if writer is not None and not waiting and (only_valid or (result.clean and result.decided)):
                writer.add(row.out, row.failures)
        if writer is None or (not only_valid and not (result.clean and result.decided)):
            db.session.rollback()
            return result
        writer.flush()
        if apply_changes:
            apply_diffs(pending_diffs, muni, actor, writer.reason, result.updated)
        accepted = [(ln, k) for ln, _c, k, _m in result.decisions if ln not in result.undecided_lines]
        record("registry_import", "registry_import", result.sha256[:16], None, {
            "file": file_name, "sha256": result.sha256, "rows": result.rows, "valid": result.valid,
            "rows_with_errors": result.error_rows, "already_registered": result.existing,
            "created": dict(result.written), "updated": dict(result.updated), "only_valid": only_valid,
            "ignored_columns": list(header.unknown), "accepted_decisions": accepted,
            "transitions": len(result.transitions), "transition_act": act, "transition_until": act_until},
            municipality_id=muni.id, actor=actor)
        db.session.flush()  # staged whole: the caller's unit (the job, the command) commits it
        result.committed = True
        return result
    except BaseException:
        db.session.rollback()
        raise


def result_json(result):
    """What the job stores: the report as the screen and the CSV read it, never recomputed."""
    return {"rows": result.rows, "valid": result.valid, "existing": result.existing, "written": result.written,
            "updated": result.updated, "errors": result.errors, "error_rows": result.error_rows,
            "warnings": result.warnings, "decisions": result.decisions, "transitions": result.transitions,
            "changes": result.changes, "undecided_lines": sorted(result.undecided_lines),
            "committed": result.committed, "sha256": result.sha256, "clean": result.clean,
            "decided": result.decided}


def error_report_rows(result):
    """Rows of the downloadable error report (line, column, message)."""
    return [(line, column, message) for line, column, message in result.errors]


def stamp():
    return datetime.now().strftime("%Y%m%d-%H%M%S")
