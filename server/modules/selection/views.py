"""Back office of the public selection (Paranatinga Lei 311/2007): vacancies by population,
editais, candidates and their legal conditions, ranking with ties, the published lists (PDF)
and the register of suplentes. Thin handlers: parse → scope → operation → render."""
import io

from flask import flash, redirect, render_template, request, send_file, url_for

from ...core.audit_labels import action_label
from ...core.auth import get_scoped_or_404, scoped
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.validation import mask_cpf
from ..registry.scope import municipality, staff_view
from ...core.forms import Field, load, raw_values, run, stray_errors
from ...core.routes import RouteTable
from . import operations as ops
from . import rules
from .models import CANDIDATE_STATUSES, Candidate, Edital
from .pdf import classification_pdf
from .schemas import (CandidateSchema, EditalSchema, MotorcycleSchema, PopulationSchema, ReasonSchema,
                      TieBreakSchema, parse_extra_criteria)

routes = RouteTable()

POPULATION_FIELDS = [
    Field("population", "População (habitantes)", "number", required=True),
    Field("reference_date", "Data de referência", "date", required=True),
    Field("source", "Fonte", required=True, hint="Ex.: IBGE, estimativa populacional 2025 (art. 4º, § 2º)."),
]
EDITAL_FIELDS = [
    Field("number", "Número do edital", required=True, hint="Ex.: 001/2026."),
    Field("published_on", "Publicado em", "date", required=True),
    Field("registration_until", "Inscrições até", "date", required=True),
    Field("vacancies_offered", "Vagas oferecidas", "number", required=True),
    Field("extra_criteria_text", "Critérios adicionais do edital", "textarea",
          hint="Um por linha, na ordem de aplicação, depois dos quatro do art. 33, § 1º. Maior valor vence; "
               "escreva “| menor” para o menor vencer (ex.: “Idade | menor”)."),
]


def _candidate_fields(edital):
    fields = [
        Field("name", "Nome", required=True), Field("cpf", "CPF", required=True, attrs={"inputmode": "numeric"}),
        Field("profession_since", "Exerce a profissão desde", "date", required=True,
              hint="Critério a) do art. 33, § 1º."),
        Field("cnh_first_issue_date", "Primeira habilitação", "date", required=True,
              hint="Critério b) do art. 33, § 1º, e art. 7º, II (mais de 1 ano)."),
        Field("vehicle_year", "Ano de fabricação da motocicleta", "number",
              hint="Critério c). Deixe em branco se ainda não tem motocicleta (art. 8º, § 1º: 90 dias se selecionado)."),
        Field("schooling", "Escolaridade", "select", required=True,
              options=[("", "—")] + [(str(i), s) for i, s in enumerate(rules.SCHOOLING)], hint="Critério d)."),
    ]
    fields += [Field(f"extra_{c['key']}", c["label"], "number", hint="Critério do edital.")
               for c in edital.extra_criteria or []]
    return fields


def _muni():
    muni = municipality()
    if muni.slug != "paranatinga":
        raise ApiError(404, "not_found", "A seleção por edital é a da Lei 311/2007 de Paranatinga.")
    return muni


@routes.route("/", methods=["GET", "POST"])
@staff_view
def overview():
    muni = _muni()
    errors, values = None, {}
    if request.method == "POST":
        data, errors = load(PopulationSchema(), POPULATION_FIELDS)
        if errors is None:
            _, errors = run(ops.record_population, muni, data)
            if errors is None:
                flash("População registrada.")
                return redirect(url_for("selection_bo.overview"))
        values = raw_values(POPULATION_FIELDS)
    suplentes = (scoped(Candidate).join(Edital).filter(Candidate.status == "suplente")
                 .order_by(Edital.classification_published_at, Edital.id, Candidate.classification).all())
    called = (scoped(Candidate).filter(Candidate.status.in_(("convocado", "em_regularizacao", "selecionado")))
              .order_by(Candidate.called_on, Candidate.classification).all())
    return render_template("selection/overview.html", summary=ops.vacancy_summary(muni),
                           editais=scoped(Edital).order_by(Edital.published_on.desc(), Edital.id.desc()).all(),
                           suplentes=suplentes, called=called, statuses=CANDIDATE_STATUSES, mask_cpf=mask_cpf,
                           fields=POPULATION_FIELDS, values=values, errors=errors or {},
                           stray=stray_errors(errors, POPULATION_FIELDS), today=local_today()), (422 if errors else 200)


@routes.route("/editais/novo", methods=["GET", "POST"])
@staff_view
def edital_new():
    muni = _muni()
    errors, values = None, {"published_on": local_today().isoformat()}
    if request.method == "POST":
        data, errors = load(EditalSchema(), EDITAL_FIELDS)
        if errors is None:
            try:
                data["extra_criteria"] = parse_extra_criteria(data.pop("extra_criteria_text", ""))
            except Exception as err:  # ValidationError from the parser, named by field
                errors = getattr(err, "messages", {"extra_criteria_text": [str(err)]})
        if errors is None:
            edital, errors = run(ops.create_edital, muni, data)
            if errors is None:
                flash(f"Edital {edital.number} criado.")
                return redirect(url_for("selection_bo.edital_detail", ident=edital.id))
        values = raw_values(EDITAL_FIELDS)
    return render_template("selection/edital_form.html", fields=EDITAL_FIELDS, values=values,
                           errors=errors or {}, stray=stray_errors(errors, EDITAL_FIELDS),
                           summary=ops.vacancy_summary(muni)), (422 if errors else 200)


def _edital_page(edital, tie_errors=None, status=200):
    ranking = rules.rank(edital.candidates, edital.extra_criteria, edital.published_on)
    results = {c.id: rules.condition_results(c, edital.published_on) for c in edital.candidates}
    return render_template("selection/edital.html", edital=edital, ranking=ranking, results=results,
                           conditions=rules.CONDITIONS, criteria=rules.LEGAL_CRITERIA, schooling=rules.SCHOOLING,
                           statuses=CANDIDATE_STATUSES, mask_cpf=mask_cpf, tie_errors=tie_errors or {}), status


@routes.get("/editais/<int(max=2147483647):ident>")
@staff_view
def edital_detail(ident):
    _muni()
    return _edital_page(get_scoped_or_404(Edital, ident))


@routes.route("/editais/<int(max=2147483647):ident>/candidatos/novo", methods=["GET", "POST"])
@staff_view
def candidate_new(ident):
    _muni()
    edital = get_scoped_or_404(Edital, ident)
    fields = _candidate_fields(edital)
    errors, values, ticked = None, {}, set()
    if request.method == "POST":
        ticked = {c.key for c in rules.CHECKED_CONDITIONS if request.form.get(c.key)}
        raw = {f.name: request.form.get(f.name, "") for f in fields if not f.name.startswith("extra_")}
        raw.update({key: "1" for key in ticked})
        data, errors = load(CandidateSchema(), fields, raw=raw)
        extra, extra_errors = _extra_values(edital)
        if extra_errors:
            errors = {**(errors or {}), **extra_errors}
        if errors is None:
            data["extra_values"] = extra
            _, errors = run(ops.register_candidate, edital, data)
            if errors is None:
                flash("Candidato inscrito.")
                return redirect(url_for("selection_bo.edital_detail", ident=edital.id, _anchor="candidatos"))
        values = raw_values(fields)
    return render_template("selection/candidate_form.html", edital=edital, fields=fields, values=values,
                           errors=errors or {}, stray=stray_errors(errors, fields), ticked=ticked,
                           conditions=rules.CHECKED_CONDITIONS), (422 if errors else 200)


def _extra_values(edital):
    values, errors = {}, {}
    for crit in edital.extra_criteria or []:
        name = f"extra_{crit['key']}"
        text = request.form.get(name, "").strip().replace(",", ".")
        if not text:
            continue
        try:
            number = float(text)
            if not -1e9 < number < 1e9:
                raise ValueError
            values[crit["key"]] = number
        except ValueError:
            errors[name] = ["Informe um número."]
    return values, errors


@routes.post("/editais/<int(max=2147483647):ident>/desempate")
@staff_view
def tie_break(ident):
    _muni()
    edital = get_scoped_or_404(Edital, ident)
    raw = {"order": [v for v in request.form.getlist("order") if v.strip()], "reason": request.form.get("reason", "")}
    data, errors = load(TieBreakSchema(), [], raw=raw)
    if errors is None:
        _, errors = run(ops.resolve_tie, edital, data["order"], data["reason"])
        if errors is None:
            flash("Desempate registrado.")
            return redirect(url_for("selection_bo.edital_detail", ident=edital.id, _anchor="empates"))
    return _edital_page(get_scoped_or_404(Edital, ident), errors, 409 if "_schema" in errors else 422)


@routes.post("/editais/<int(max=2147483647):ident>/publicar")
@staff_view
def publish(ident):
    _muni()
    edital = get_scoped_or_404(Edital, ident)
    _, errors = run(ops.publish_classification, edital)
    if errors is None:
        flash("Classificação publicada: selecionados e cadastro de suplentes registrados.")
        return redirect(url_for("selection_bo.edital_detail", ident=edital.id))
    return _edital_page(get_scoped_or_404(Edital, ident), errors, 409)


@routes.get("/editais/<int(max=2147483647):ident>/classificacao.pdf")
@staff_view
def classification_file(ident):
    muni = _muni()
    edital = get_scoped_or_404(Edital, ident)
    ranking = rules.rank(edital.candidates, edital.extra_criteria, edital.published_on)
    response = send_file(io.BytesIO(classification_pdf(muni, edital, ranking)), mimetype="application/pdf",
                         download_name=f"edital-{edital.id}-classificacao.pdf")
    response.headers["Cache-Control"] = "private, no-store"
    return response


@routes.post("/convocar")
@staff_view
def call_next():
    muni = _muni()
    data, errors = load(ReasonSchema(), [Field("reason", "Motivo")])
    if errors is None:
        cand, errors = run(ops.call_for_vacancy, muni, data["reason"])
        if errors is None:
            flash(f"{cand.name} convocado (art. 34).")
    for msgs in (errors or {}).values():
        flash(" ".join(msgs))
    return redirect(url_for("selection_bo.overview", _anchor="suplentes"))


CANDIDATE_ACTIONS = {
    "prazo": (ReasonSchema, lambda c, d: ops.grant_regularization(c, d["reason"]), "grant_regularization"),
    "regularizar": (ReasonSchema, lambda c, d: ops.mark_regularized(c, d["reason"]), "regularize"),
    "desistencia": (ReasonSchema, lambda c, d: ops.candidate_withdraws(c, d["reason"]), "candidate_withdraw"),
    "motocicleta": (MotorcycleSchema, lambda c, d: ops.present_motorcycle(c, d["vehicle_year"], d["reason"]),
                    "present_motorcycle"),
}


@routes.post("/candidatos/<int(max=2147483647):ident>/<action>")
@staff_view
def candidate_action(ident, action):
    _muni()
    cand = get_scoped_or_404(Candidate, ident)
    if action not in CANDIDATE_ACTIONS:
        raise ApiError(404, "not_found")
    schema, operation, code = CANDIDATE_ACTIONS[action]
    data, errors = load(schema(), [Field("reason", "Motivo"), Field("vehicle_year", "Ano")])
    if errors is None:
        _, errors = run(operation, cand, data)
        if errors is None:
            flash(f"{action_label(code)}: {cand.name}.")
    for field, msgs in (errors or {}).items():
        flash(("Motivo: " if field == "reason" else "Ano: " if field == "vehicle_year" else "") + " ".join(msgs))
    return redirect(url_for("selection_bo.overview", _anchor="convocados"))
