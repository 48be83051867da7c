"""Every selection state change: population figure, edital, candidates, classification, tie
breaks, the call of suplentes and the two windows the daily job closes. Audited, in the caller's
transaction. Citations are Paranatinga Lei 311/2007."""
from ...rules.legal_calendar import cc_132_days, deadline, reading_counting
from ...core.audit import record, snapshot
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.tenancy import owned
from ...extensions import db
from ..calendar.service import calendar_of, move_stored_days
from ..registry.models import OCCUPYING, Municipality, Permit, utcnow
from ..rules.service import composed_for
from . import rules
from .models import CANDIDATE_STATUSES, Candidate, Edital, PopulationFigure

# Statuses that hold or are about to hold a vacancy (the permit itself is issued by the registry).
CALLED = ("convocado", "em_regularizacao")


def _field_error(field, message, status=422):
    return ApiError(status, "validation_error", "Dados inválidos.", {field: [message]})


def _require_law(municipality):
    if municipality.slug != "paranatinga":
        raise ApiError(409, "not_in_law", "A seleção pública por edital com cadastro de suplentes é a "
                                          "da Lei 311/2007 de Paranatinga; a lei deste município não a prevê.")


# ---- vacancies -------------------------------------------------------------------------------

def current_population(municipality):
    return (PopulationFigure.query.filter_by(municipality_id=municipality.id)
            .order_by(PopulationFigure.reference_date.desc(), PopulationFigure.id.desc()).first())


def vacancy_summary(municipality):
    """Total vacancies by law, occupied and free (None total until a population is recorded)."""
    figure = current_population(municipality)
    occupied = Permit.query.filter(Permit.municipality_id == municipality.id,
                                   Permit.status.in_(OCCUPYING)).count()
    if figure is None:
        return {"figure": None, "total": None, "occupied": occupied, "free": None, "basis": None}
    total = rules.vacancies_for(figure.population)
    return {"figure": figure, "total": total, "occupied": occupied, "free": max(total - occupied, 0),
            "basis": rules.vacancy_basis(figure.population)}


def record_population(municipality, data):
    _require_law(municipality)
    if PopulationFigure.query.filter_by(municipality_id=municipality.id,
                                        reference_date=data["reference_date"]).first():
        raise _field_error("reference_date", "Já existe uma população registrada com esta data.", 409)
    row = PopulationFigure(municipality_id=municipality.id, **data)
    db.session.add(row)
    db.session.flush()
    record("create", "population_figure", row.id, None, snapshot(row), municipality_id=municipality.id)
    return row


# ---- edital and candidates -------------------------------------------------------------------

def create_edital(municipality, data):
    _require_law(municipality)
    if Edital.query.filter_by(municipality_id=municipality.id, number=data["number"]).first():
        raise _field_error("number", "Já existe um edital com este número.", 409)
    if data["registration_until"] < data["published_on"]:
        raise _field_error("registration_until", "As inscrições não podem terminar antes da publicação.")
    summary = vacancy_summary(municipality)
    if summary["total"] is None:
        raise _field_error("vacancies_offered", "Registre antes a população do município (IBGE, "
                                                "art. 4º, § 2º): as vagas dependem dela.")
    if data["vacancies_offered"] > summary["free"]:
        raise _field_error("vacancies_offered", f"Há {summary['free']} vaga(s) livre(s) de {summary['total']} "
                                                f"({summary['basis']}).")
    edital = Edital(municipality_id=municipality.id, **data)
    db.session.add(edital)
    db.session.flush()
    record("create", "edital", edital.id, None, snapshot(edital), municipality_id=municipality.id)
    return edital


def _editable(edital):
    if edital.classification_published_at is not None:
        raise ApiError(409, "published", "A classificação deste edital já foi publicada.")


def register_candidate(edital, data):
    _editable(edital)
    if Candidate.query.filter_by(edital_id=edital.id, cpf=data["cpf"]).first():
        raise _field_error("cpf", "Este CPF já está inscrito neste edital.", 409)
    extra = data.pop("extra_values", {}) or {}
    unknown = set(extra) - {c["key"] for c in edital.extra_criteria or []}
    if unknown:
        raise _field_error("extra_values", "Critério que o edital não prevê: " + ", ".join(sorted(unknown)))
    conditions = {c.key: bool(data.pop(c.key, False)) for c in rules.CHECKED_CONDITIONS}
    cand = Candidate(municipality_id=edital.municipality_id, edital_id=edital.id, extra_values=extra,
                     conditions=conditions, **data)
    db.session.add(cand)
    db.session.flush()
    record("register_candidate", "candidate", cand.id, None, snapshot(cand), municipality_id=edital.municipality_id)
    return cand


def resolve_tie(edital, order_ids, reason):
    """Record the clerk's order for one tie group (ids in the chosen order) and why."""
    _editable(edital)
    ranking = rules.rank(edital.candidates, edital.extra_criteria, edital.published_on)
    group = next((g for g in ranking.ties if {c.id for c in g} == set(order_ids)), None)
    if group is None or len(order_ids) != len(set(order_ids)):
        raise _field_error("order", "Informe, em ordem, exatamente os candidatos empatados deste grupo.")
    by_id = {c.id: c for c in group}
    before = {c.id: c.tie_break for c in group}
    for position, ident in enumerate(order_ids, start=1):
        by_id[ident].tie_break = position
        by_id[ident].tie_break_reason = reason
    record("tie_break", "edital", edital.id, {"tie_break": before}, {"tie_break": {i: p for p, i in
           enumerate(order_ids, start=1)}}, reason=reason, municipality_id=edital.municipality_id)


def publish_classification(edital, today=None):
    """Art. 33 §§ 1º–2º: the first `vacancies_offered` apto candidates are selected, the rest form
    the register of suplentes in classification order. Refused while a tie is unresolved."""
    _editable(edital)
    today = today or local_today()
    ranking = rules.rank(edital.candidates, edital.extra_criteria, edital.published_on)
    if ranking.unresolved:
        names = "; ".join(", ".join(c.name for c in g) for g in ranking.unresolved)
        raise ApiError(409, "unresolved_tie", f"Há empate não resolvido ({names}): registre o desempate "
                                              "com o motivo antes de publicar.")
    for cand in ranking.inaptos:
        cand.status, cand.classification = "inapto", None
    for position, cand in enumerate(ranking.ordered, start=1):
        cand.classification = position
        if position <= edital.vacancies_offered:
            _select(cand, today)
        else:
            cand.status = "suplente"
    edital.classification_published_at = utcnow()
    record("publish_classification", "edital", edital.id, None,
           {"classification": [c.id for c in ranking.ordered], "inaptos": [c.id for c in ranking.inaptos]},
           municipality_id=edital.municipality_id)
    return ranking


def _motorcycle_due(municipality_id, today, calendar=None):
    """Art. 8º § 1º: 90 days to present the motorcycle, by the legal calendar (CC art. 132 § 1º: a
    last day without office hours moves to the next business day)."""
    if calendar is None:
        calendar = calendar_of(db.session.get(Municipality, municipality_id))
    return cc_132_days(calendar, today, rules.MOTORCYCLE_DAYS)


def _select(cand, today):
    cand.status, cand.selected_on = "selecionado", today
    # Art. 8º § 1º: selected without a motorcycle → 90 days to present one.
    cand.motorcycle_due = _motorcycle_due(cand.municipality_id, today) if cand.vehicle_year is None else None


# ---- suplentes -------------------------------------------------------------------------------

def next_suplente(municipality):
    """The first suplente in classification order, oldest published edital first (art. 27 caput:
    "seguindo rigorosamente a ordem de classificação dos suplentes")."""
    return (Candidate.query.join(Edital).filter(Candidate.municipality_id == municipality.id,
                                                Candidate.status == "suplente")
            .order_by(Edital.classification_published_at, Edital.id, Candidate.classification).first())


def call_next_suplente(municipality, reason, today=None, actor=None):
    """Art. 34: a vacancy opened (art. 27); call the next suplente. Returns the candidate or None."""
    today = today or local_today()
    cand = next_suplente(municipality)
    if cand is None:
        return None
    before = snapshot(cand)
    cand.status, cand.called_on = "convocado", today
    cand.status_reason = reason
    if cand.vehicle_year is None:  # art. 8º § 1º applies to a called suplente as to a selected one
        cand.motorcycle_due = _motorcycle_due(municipality.id, today)
    record("call_suplente", "candidate", cand.id, before, snapshot(cand), reason=reason,
           municipality_id=municipality.id, actor=actor)
    return cand


def call_for_vacancy(municipality, reason):
    """The back office's "Convocar próximo suplente" (only while a vacancy is free)."""
    _require_law(municipality)
    summary = vacancy_summary(municipality)
    called = Candidate.query.filter(Candidate.municipality_id == municipality.id,
                                    Candidate.status.in_(CALLED)).count()
    if summary["free"] is not None and summary["free"] - called <= 0:
        raise ApiError(409, "no_vacancy", f"Não há vaga livre: {summary['occupied']} ocupadas e {called} "
                                          f"suplente(s) já convocado(s), de {summary['total']}.")
    cand = call_next_suplente(municipality, reason)
    if cand is None:
        raise ApiError(409, "no_suplente", "Não há suplente no cadastro (art. 33, § 2º).")
    return cand


def _regularize_until(municipality_id, today):
    """Art. 33 § 3º: 5 days counted as the municipality's option chose (reading
    paranatinga.art33_3_days, default plain calendar days)."""
    municipality = db.session.get(Municipality, municipality_id)
    counting = reading_counting(composed_for(municipality).config.get("options"), rules.REGULARIZE_COUNTING_OPTION)
    return deadline(calendar_of(municipality), today, rules.REGULARIZE_DAYS, counting)


def grant_regularization(cand, justification, today=None):
    """Art. 33 § 3º: the called suplente falls short of the law; with a reasoned justification,
    a window of at most 5 days to regularize."""
    today = today or local_today()
    if cand.status != "convocado":
        raise ApiError(409, "invalid_state", "Só se concede prazo a um suplente convocado.")
    before = snapshot(cand)
    cand.status, cand.regularize_until = "em_regularizacao", _regularize_until(cand.municipality_id, today)
    cand.status_reason = justification
    record("grant_regularization", "candidate", cand.id, before, snapshot(cand), reason=justification,
           municipality_id=cand.municipality_id)


def mark_regularized(cand, reason):
    if cand.status != "em_regularizacao":
        raise ApiError(409, "invalid_state", "O candidato não está em prazo de regularização.")
    before = snapshot(cand)
    cand.status, cand.regularize_until, cand.status_reason = "convocado", None, reason
    record("regularize", "candidate", cand.id, before, snapshot(cand), reason=reason,
           municipality_id=cand.municipality_id)


def present_motorcycle(cand, vehicle_year, reason):
    """Art. 8º § 1º: a selected candidate shows the motorcycle inside the 90 days."""
    if cand.status not in ("selecionado", "convocado") or cand.vehicle_year is not None:
        raise ApiError(409, "invalid_state", "Nada pendente: o candidato já tem motocicleta registrada.")
    before = snapshot(cand)
    cand.vehicle_year, cand.motorcycle_due = vehicle_year, None
    record("present_motorcycle", "candidate", cand.id, before, snapshot(cand), reason=reason,
           municipality_id=cand.municipality_id)


def candidate_withdraws(cand, reason, today=None):
    """A selected or called candidate, or a suplente, is no longer interested (art. 27 caput:
    the vacancy goes to the "suplentes interessados"). A called or selected one frees a vacancy:
    the next suplente is called."""
    if cand.status not in ("selecionado", "convocado", "em_regularizacao", "suplente"):
        raise ApiError(409, "invalid_state", "O candidato não está selecionado, convocado nem no cadastro de suplentes.")
    held_vacancy = cand.status != "suplente"
    before = snapshot(cand)
    cand.status, cand.regularize_until, cand.motorcycle_due, cand.status_reason = "desistente", None, None, reason
    record("candidate_withdraw", "candidate", cand.id, before, snapshot(cand), reason=reason,
           municipality_id=cand.municipality_id)
    called = None
    if held_vacancy:
        called = call_next_suplente(cand.edital.municipality, f"Vaga aberta pela desistência de {cand.name}.", today)
    return called


# ---- the daily job ---------------------------------------------------------------------------

def disable_lapsed_regularizations(today):
    """Art. 33 § 3º: the window ran out without regularization → disabled, next suplente called.
    Idempotent: only candidates still "em_regularizacao" with a past deadline are touched."""
    lapsed = (Candidate.query.filter(Candidate.status == "em_regularizacao", Candidate.regularize_until < today)
              .order_by(Candidate.id).all())
    for cand in lapsed:
        before = snapshot(cand)
        cand.status = "desabilitado"
        cand.status_reason = f"Prazo de regularização encerrado em {cand.regularize_until:%d/%m/%Y} (art. 33, § 3º)."
        record("disable_candidate", "candidate", cand.id, before, snapshot(cand), reason=cand.status_reason,
               municipality_id=cand.municipality_id)
        call_next_suplente(cand.edital.municipality, "Convocação do subsequente (art. 33, § 3º).", today)
    return len(lapsed)


def forfeit_without_motorcycle(today):
    """Art. 8º § 1º: selected without a motorcycle and none shown in 90 days → loses the right;
    the vacancy goes to the next suplente (art. 34)."""
    lapsed = (Candidate.query.filter(Candidate.status.in_(("selecionado", "convocado")),
                                     Candidate.vehicle_year.is_(None), Candidate.motorcycle_due < today)
              .order_by(Candidate.id).all())
    for cand in lapsed:
        before = snapshot(cand)
        cand.status = "perdeu_direito"
        cand.status_reason = f"Motocicleta não apresentada até {cand.motorcycle_due:%d/%m/%Y} (art. 8º, § 1º)."
        record("forfeit_candidate", "candidate", cand.id, before, snapshot(cand), reason=cand.status_reason,
               municipality_id=cand.municipality_id)
        call_next_suplente(cand.edital.municipality, "Vaga aberta por perda do direito (art. 8º, § 1º).", today)
    return len(lapsed)


# ---- from selection to permit ----------------------------------------------------------------

# Where the law makes the public selection the way to a permit. Paranatinga Lei 311/2007, art. 21:
# "a regra geral para a seleção ... é a seleção pública, através de critérios pré-estabelecidos em
# edital"; art. 33: the apto candidates, classified; art. 34: the suplentes fill the vacancies of
# art. 27. The law's only other path to a holder is the transfer of art. 30 (heir, or the holder's
# desistência of art. 27), which changes the holder of an existing permit (changes_of_life), never
# issues a new one; art. 54 gave permits held before the law 90 days to adapt (not a new issue).
SELECTION_REQUIRED = {"paranatinga": f"{rules.LAW}, arts. 21, 33 e 34"}
# A candidate who may receive the permit: selected in a published classification, or called.
MAY_RECEIVE = ("selecionado", "convocado")


def vacancy_refusal(municipality):
    """None while the law leaves a vacancy for one more permit; else the pt-BR refusal. Paranatinga:
    the population-based count of art. 4º (vacancy_summary; the caput's 45 until a population is
    recorded, as § 1º only adds vacancies from 45,000 inhabitants on). Elsewhere no law sets a
    number: the municipality's own `vacancy_limit` setting, when configured."""
    if municipality.slug == "paranatinga":
        summary = vacancy_summary(municipality)
        total, basis = summary["total"], summary["basis"]
        if total is None:
            total = rules.BASE_VACANCIES
            basis = f"{rules.LAW}, art. 4º, caput — população do IBGE ainda não registrada"
        if summary["occupied"] >= total:
            return f"Não há vaga: {summary['occupied']} permissões em vigor de {total} ({basis})."
        return None
    limit = municipality.setting("vacancy_limit")
    if limit is not None:
        occupied = Permit.query.filter(Permit.municipality_id == municipality.id,
                                       Permit.status.in_(OCCUPYING)).count()
        if occupied >= int(limit):
            basis = municipality.setting("vacancy_limit_basis", "configuração do município")
            return f"Limite de {limit} permissões atingido ({basis})."
    return None


def candidate_for_permit(municipality, candidate_id, holder):
    """The selected or called candidate a new permit goes to (None where the law requires no
    selection and none is named). Refuses, naming the field, anything else."""
    basis = SELECTION_REQUIRED.get(municipality.slug)
    if candidate_id is None:
        if basis is not None:
            raise _field_error("candidate_id", f"A permissão é delegada ao candidato selecionado ou suplente "
                                               f"convocado de um edital ({basis}): escolha o candidato.")
        return None
    if basis is None:
        raise _field_error("candidate_id", "A lei deste município não prevê seleção por edital.")
    cand = owned(Candidate, candidate_id, municipality.id)
    if cand is None:
        raise _field_error("candidate_id", "Candidato não encontrado neste município.")
    if cand.status not in MAY_RECEIVE:
        raise _field_error("candidate_id", f"{cand.name} está \u201c{cand_status_label(cand)}\u201d: só o "
                                           f"selecionado ou o suplente convocado recebe a permissão ({basis}).")
    if holder is None or holder.cpf != cand.cpf:
        raise _field_error("holder_operator_id", f"O titular deve ser o próprio candidato {cand.name} "
                                                 "(mesmo CPF): a permissão é pessoal (art. 30).")
    return cand


def cand_status_label(cand):
    return CANDIDATE_STATUSES.get(cand.status, cand.status)


def mark_permit_granted(cand, permit):
    """Inside issue_permit's transaction: the candidate received the permit (state and link)."""
    before = snapshot(cand)
    cand.status, cand.permit_id = "permissionario", permit.id
    cand.regularize_until = None
    cand.status_reason = f"Permissão {permit.number} emitida ({SELECTION_REQUIRED[cand.edital.municipality.slug]})."
    record("grant_permit", "candidate", cand.id, before, snapshot(cand), reason=cand.status_reason,
           municipality_id=cand.municipality_id)


def receivable_candidates(municipality):
    """Candidates who may receive a permit now, for the permit form."""
    return (Candidate.query.filter(Candidate.municipality_id == municipality.id,
                                   Candidate.status.in_(MAY_RECEIVE))
            .order_by(Candidate.edital_id, Candidate.classification).all())


def move_motorcycle_dues(municipality, closed_day):
    """The calendar's closure_added receiver (server/subscriptions.py), inside its transaction: the
    stored art. 8º § 1º day (90 days by CC art. 132, `_motorcycle_due`) is recomputed when a closure
    is recorded on or before it, from the day the candidate was selected or called; audited, and
    only ever later (removing a closure does not shorten a period already announced)."""
    rows = (Candidate.query.filter(Candidate.municipality_id == municipality.id, Candidate.vehicle_year.is_(None),
                                   Candidate.motorcycle_due >= closed_day)
            .order_by(Candidate.id).all())

    def recount(cand, cal):
        start = cand.called_on if cand.status == "convocado" else cand.selected_on
        return None if start is None else _motorcycle_due(municipality.id, start, cal)

    def move(cand, new_due):
        before = snapshot(cand)
        cand.motorcycle_due = new_due
        record("update", "candidate", cand.id, before, snapshot(cand), municipality_id=municipality.id,
               reason=f"Dia sem expediente registrado ({closed_day:%d/%m/%Y}): prazo da motocicleta até "
                      f"{new_due:%d/%m/%Y} (Lei 311/2007, art. 8º, § 1º; Código Civil, art. 132, § 1º)")

    return move_stored_days(municipality, rows, recount, lambda cand: cand.motorcycle_due, move)
