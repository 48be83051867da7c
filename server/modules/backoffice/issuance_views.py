"""Back-office screens of issuance: vistoria form (checklist items from the packs), insurance
policy form, documents checked, Nortelândia's monthly ISSQN (charges, payments, arrears)."""
from datetime import date as _date

from flask import abort, flash, redirect, render_template, request, url_for

from ...core.auth import get_scoped_or_404, scoped
from ...core.clock import local_today
from ...core.forms import Field, load, raw_values, run, stray_errors
from ...core.http import bounded_int
from ...core.pagination import Page
from ...core.ptbr import plate as plate_text
from ...core.routes import RouteTable
from ..issuance.models import COVERED_PERSONS, INSURANCE_KINDS, VISTORIA_KINDS, VISTORIA_RESULTS, IssqnCharge
from ..issuance.operations import (
    ISSQN_BASIS,
    ISSQN_MUNICIPALITIES,
    pay_issqn_charge,
    record_documents,
    record_renewal_documents,
    record_vistoria,
    save_policy,
    set_renewal_first_documents,
    set_vistoria_period,
)
from ..issuance.records import (
    NORTELANDIA_LIFE_BASIS,
    SAPEZAL_MINIMUMS_BASIS,
    VISTORIA_PERIOD_SETTING,
    document_values,
)
from ..issuance.renewal import (
    ALL_FIRST_DOCUMENTS,
    ALL_FIRST_DOCUMENTS_SETTING,
    cycle_start,
    documents_for,
    renewal_items,
)
from ..issuance.requirements import EXTRA_CHECKS, EXTRA_QUESTIONS
from ..issuance.schemas import (
    DocumentChecksSchema,
    InsurancePolicySchema,
    IssqnPaymentSchema,
    VistoriaPeriodSchema,
    VistoriaSchema,
)
from ..issuance.vistoria_checklist import vistoria_items
from ..registry.facts import document_questions, document_subject
from ..registry.models import Operator, Permit, Vehicle
from ..registry.scope import municipality, staff_view
from ..rules.service import composed_for

routes = RouteTable()

YES_NO = [("", "— não informado —"), ("sim", "Sim"), ("nao", "Não")]


def _back_permit():
    """The permit page the clerk came from (?permissao=<id>), checked against the municipality."""
    ident = bounded_int(request.args.get("permissao"))
    return get_scoped_or_404(Permit, ident) if ident else None


def _answers(items):
    """Checklist answers from the form: sim/nao → bool, numbers → int, blank → not verified."""
    answers, errors = {}, {}
    for item in items:
        raw = (request.form.get("item:" + item["fact"]) or "").strip()
        if not raw:
            continue
        if item["input"] == "number":
            if not raw.isdigit() or len(raw) > 6:
                errors["item:" + item["fact"]] = ["Informe um número inteiro."]
            else:
                answers[item["fact"]] = int(raw)
        elif raw in ("sim", "nao"):
            answers[item["fact"]] = raw == "sim"
        else:
            errors["item:" + item["fact"]] = ["Escolha sim ou não."]
    return answers, errors


VISTORIA_FIELDS = [
    Field("kind", "Tipo", "select", required=True,
          options=[(k, v) for k, v in VISTORIA_KINDS.items() if k != "registro_anterior"]),
    Field("inspected_on", "Data da vistoria", "date", required=True),
    Field("inspector_name", "Fiscal/servidor que vistoriou", required=True),
    Field("result", "Resultado", "select", required=True, options=[("", "—")] + list(VISTORIA_RESULTS.items())),
    Field("items_to_fix", "Itens a corrigir", "textarea", hint="Obrigatório se reprovada."),
    Field("return_on", "Data de retorno", "date", hint="Obrigatória se reprovada."),
    Field("notes", "Observações", "textarea"),
]


@routes.route("/bo/veiculos/<int(max=2147483647):ident>/vistorias/nova", methods=["GET", "POST"])
@staff_view
def vistoria_new(ident):
    vehicle = get_scoped_or_404(Vehicle, ident)
    permit = _back_permit()
    today = local_today()
    items = vistoria_items(municipality(), today)
    errors, values, answers_raw = None, {"inspected_on": today.isoformat(), "kind": "periodica"}, {}
    if request.method == "POST":
        data, errors = load(VistoriaSchema(), VISTORIA_FIELDS)
        answers, item_errors = _answers(items)
        answers_raw = {k[5:]: v for k, v in request.form.items() if k.startswith("item:")}
        if item_errors:
            errors = {**(errors or {}), **item_errors}
        if errors is None:
            _, errors = run(record_vistoria, municipality(), vehicle, data, answers, permit)
            if errors is None:
                flash("Vistoria registrada.")
                if permit is not None:
                    return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="requisitos"))
                return redirect(url_for("backoffice.vehicle_detail", ident=vehicle.id))
        values = raw_values(VISTORIA_FIELDS)
    return render_template("backoffice/vistoria_form.html", vehicle=vehicle, permit=permit, fields=VISTORIA_FIELDS,
                           values=values, errors=errors or {}, stray=stray_errors(
                               {k: v for k, v in (errors or {}).items() if not k.startswith("item:")}, VISTORIA_FIELDS),
                           items=items, answers=answers_raw), (422 if errors else 200)


# Sapezal art. 4º § 1º, I to IV: the form asks them once per covered person.
SAPEZAL_COVER_FIELDS = (
    ("temporary_disability", "Invalidez temporária (R$)", "Mínimo R$ 2.000,00 (art. 4º, § 1º, I)."),
    ("permanent_disability", "Invalidez permanente (R$)", "Mínimo R$ 8.000,00 (art. 4º, § 1º, II)."),
    ("death", "Morte (R$)", "Mínimo R$ 15.000,00 (art. 4º, § 1º, III)."),
)
PERSON_LEGENDS = {"third_parties": "Cobertura de terceiros", "driver": "Cobertura do motorista",
                  "passenger": "Cobertura do passageiro"}


def _person_fields(person):
    label = COVERED_PERSONS[person]
    fields = [Field(f"{person}_{cover}", text, attrs={"inputmode": "decimal"}, hint=hint)
              for cover, text, hint in SAPEZAL_COVER_FIELDS]
    return fields + [Field(f"{person}_personal_accidents", f"Cobre acidentes pessoais ({label})?", "select",
                           options=YES_NO, hint="Art. 4º, § 1º, IV.")]


def _policy_groups(muni):
    """[(legend or None, [Field])]: the policy's fields, grouped per covered person in Sapezal."""
    fields = [
        Field("kind", "Tipo de seguro", "select", required=True, options=list(INSURANCE_KINDS.items())),
        Field("insurer", "Seguradora", required=True),
        Field("policy_number", "Número da apólice", required=True),
        Field("starts_on", "Início da vigência", "date", required=True),
        Field("ends_on", "Fim da vigência", "date", required=True),
    ]
    if muni.slug == "sapezal":
        return [(None, fields)] + [(PERSON_LEGENDS[p], _person_fields(p)) for p in COVERED_PERSONS] + [
            (None, [Field("copy_filed", "Cópia autenticada entregue para arquivo?", "select", options=YES_NO,
                          hint="Art. 4º, § 3º.")])]
    basis = NORTELANDIA_LIFE_BASIS + ": 220 SM morte, 220 SM invalidez, 10 SM despesas médicas" \
        if muni.slug == "nortelandia" else "coberturas conferidas com a lei e o edital"
    fields += [
        Field("cover_death", "Morte (R$)", attrs={"inputmode": "decimal"}),
        Field("cover_permanent_disability", "Invalidez (R$)", attrs={"inputmode": "decimal"}),
        Field("cover_medical", "Despesas médicas (R$)", attrs={"inputmode": "decimal"}),
        Field("coverage_attested", "Coberturas mínimas conferidas?", "select", options=YES_NO, hint=basis + "."),
        Field("copy_filed", "Cópia da apólice arquivada?", "select", options=YES_NO),
    ]
    return [(None, fields)]


@routes.route("/bo/veiculos/<int(max=2147483647):ident>/seguros/novo", methods=["GET", "POST"])
@staff_view
def policy_new(ident):
    vehicle = get_scoped_or_404(Vehicle, ident)
    permit = _back_permit()
    muni = municipality()
    groups = _policy_groups(muni)
    fields = [f for _, group in groups for f in group]
    errors, values = None, {"kind": "terceiros_app" if muni.slug == "sapezal" else
                            ("vida" if muni.slug == "nortelandia" else "outro")}
    if request.method == "POST":
        data, errors = load(InsurancePolicySchema(), fields)
        if errors is None:
            _, errors = run(save_policy, muni, vehicle, data)
            if errors is None:
                flash("Apólice registrada.")
                if permit is not None:
                    return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="requisitos"))
                return redirect(url_for("backoffice.vehicle_detail", ident=vehicle.id))
        values = raw_values(fields)
    note = SAPEZAL_MINIMUMS_BASIS + ", para terceiros, motorista e passageiro, individualmente" \
        if muni.slug == "sapezal" else None
    return render_template("backoffice/issuance_form.html", title=f"Apólice de seguro — {plate_text(vehicle.plate)}",
                           vehicle=vehicle, permit=permit, fields=fields, groups=groups, values=values,
                           errors=errors or {}, stray=stray_errors(errors, fields), note=note), (422 if errors else 200)


def _document_questions(muni, subject):
    """(fact, question) the packs read for this kind of subject, plus the law's extra checks."""
    declared = composed_for(muni).facts
    questions = [(fact, q) for fact, q in document_questions(declared).items()
                 if document_subject(fact, declared.get(fact)) == subject]
    questions += [(fact, EXTRA_QUESTIONS[fact]) for subj, fact, _, _ in EXTRA_CHECKS.get(muni.slug, []) if subj == subject]
    return questions


@routes.route("/bo/documentos/<any(operator, vehicle):subject>/<int(max=2147483647):ident>", methods=["GET", "POST"])
@staff_view
def documents_form(subject, ident):
    obj = get_scoped_or_404(Operator if subject == "operator" else Vehicle, ident)
    permit = _back_permit()
    muni = municipality()
    questions = _document_questions(muni, subject)
    fields = [Field("checked_on", "Data da conferência", "date", required=True),
              Field("valid_until", "Válidos até (certidões com prazo)", "date")]
    current = document_values(subject, obj.id, local_today())
    errors, values = None, {"checked_on": local_today().isoformat()}
    if request.method == "POST":
        data, errors = load(DocumentChecksSchema(), fields)
        answers = {}
        for fact, _ in questions:
            raw = (request.form.get("doc:" + fact) or "").strip()
            if fact == "operator.licences_count":
                if raw and (not raw.isdigit() or len(raw) > 3):
                    errors = {**(errors or {}), "doc:" + fact: ["Informe um número inteiro."]}
                answers[fact] = int(raw) if raw.isdigit() and len(raw) <= 3 else None
            else:
                answers[fact] = {"sim": True, "nao": False}.get(raw)
        if errors is None:
            _, errors = run(record_documents, muni, subject, obj.id, answers, data["checked_on"], data.get("valid_until"))
            if errors is None:
                flash("Conferência de documentos registrada.")
                if permit is not None:
                    return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="requisitos"))
                return redirect(url_for("backoffice.operator_detail" if subject == "operator" else
                                        "backoffice.vehicle_detail", ident=obj.id))
        values = raw_values(fields)
    title = obj.name if subject == "operator" else plate_text(obj.plate)
    return render_template("backoffice/documents_form.html", title=title, subject=subject, obj=obj, permit=permit,
                           fields=fields, values=values, errors=errors or {}, stray=stray_errors(
                               {k: v for k, v in (errors or {}).items() if not k.startswith("doc:")}, fields),
                           questions=questions, current=current), (422 if errors else 200)


PAYMENT_FIELDS = [Field("paid_on", "Pago em", "date", required=True),
                  Field("paid_amount_brl", "Valor pago (R$)", attrs={"inputmode": "decimal"}),
                  Field("payment_reference", "Guia/DAM nº")]


def _issqn_page(errors=None, charge_id=None, status=200):
    muni = municipality()
    if muni.slug not in ISSQN_MUNICIPALITIES:
        abort(404)
    situation = request.args.get("situacao", "")
    query = scoped(IssqnCharge)
    if situation == "atraso":
        query = query.filter(IssqnCharge.paid_on.is_(None), IssqnCharge.due_on < local_today())
    elif situation == "aberto":
        query = query.filter(IssqnCharge.paid_on.is_(None))
    query = query.order_by(IssqnCharge.month.desc(), IssqnCharge.company_id)
    page = Page(query, count_query=query)
    return render_template("backoffice/issqn_list.html", page=page, situation=situation, basis=ISSQN_BASIS,
                           today=local_today(), fields=PAYMENT_FIELDS, errors=errors or {}, charge_id=charge_id), status


@routes.get("/bo/issqn/")
@staff_view
def issqn_list():
    return _issqn_page()


@routes.post("/bo/issqn/<int(max=2147483647):ident>/pagamento")
@staff_view
def issqn_pay(ident):
    charge = get_scoped_or_404(IssqnCharge, ident)
    data, errors = load(IssqnPaymentSchema(), PAYMENT_FIELDS)
    if errors is None:
        _, errors = run(pay_issqn_charge, municipality(), charge, data)
        if errors is None:
            flash("Pagamento registrado.")
            return redirect(url_for("backoffice.issqn_list"))
    return _issqn_page(errors, charge.id, 409 if "_schema" in errors else 422)


PERIOD_FIELDS = [Field("months", "Validade da vistoria (meses)", required=True, attrs={"inputmode": "numeric"}),
                 Field("source", "Ato que a fixa", required=True, hint="Decreto, portaria ou edital (nº e data).")]


@routes.route("/bo/vistorias/periodo", methods=["GET", "POST"])
@staff_view
def vistoria_period():
    """The period no law sets (Nortelândia art. 2º, Sapezal art. 14, Paranatinga art. 9º are silent)."""
    muni = municipality()
    errors = None
    values = {"months": str(muni.setting(VISTORIA_PERIOD_SETTING) or ""), "source": muni.setting("vistoria_validity_source") or ""}
    if request.method == "POST":
        data, errors = load(VistoriaPeriodSchema(), PERIOD_FIELDS)
        if errors is None:
            _, errors = run(set_vistoria_period, muni, data["months"], data["source"])
            if errors is None:
                flash("Validade da vistoria configurada.")
                return redirect(url_for("backoffice.vistoria_period"))
        values = raw_values(PERIOD_FIELDS)
    return render_template("backoffice/vistoria_period.html", fields=PERIOD_FIELDS, values=values, errors=errors or {},
                           stray=stray_errors(errors, PERIOD_FIELDS),
                           configured=muni.setting(VISTORIA_PERIOD_SETTING)), (422 if errors else 200)


RENEWAL_DOC_FIELDS = [Field("checked_on", "Data da conferência", "date", required=True,
                            hint="Posterior à emissão ou à última renovação: é o que instrui esta renovação.")]


def _renewal_answers(docs):
    """{fact: {value, valid_until, no_printed_validity}} from the form, and field errors."""
    answers, errors = {}, {}
    for doc in docs:
        raw = (request.form.get("doc:" + doc.fact) or "").strip()
        if raw not in ("", "sim", "nao"):
            errors["doc:" + doc.fact] = ["Escolha sim ou não."]
            continue
        answer = {"value": {"sim": True, "nao": False}.get(raw)}
        if doc.certidao:
            until = (request.form.get("valid:" + doc.fact) or "").strip()
            try:
                answer["valid_until"] = _date.fromisoformat(until) if until else None
            except ValueError:
                errors["doc:" + doc.fact] = ["Validade: informe uma data válida (dd/mm/aaaa)."]
                continue
            answer["no_printed_validity"] = request.form.get("noval:" + doc.fact) == "1"
        answers[doc.fact] = answer
    return answers, errors


@routes.route("/bo/permissoes/<int(max=2147483647):ident>/renovacao/documentos", methods=["GET", "POST"])
@staff_view
def renewal_documents(ident):
    """The documents a renewal is instructed with (issuance.renewal: Sapezal art. 10; Paranatinga
    arts. 13 § 1º, 22 and 23), each checked for this renewal, a certidão with its printed validity."""
    permit = get_scoped_or_404(Permit, ident)
    muni = municipality()
    docs = documents_for(muni, permit)
    errors, values = None, {"checked_on": local_today().isoformat()}
    if request.method == "POST":
        data, errors = load(DocumentChecksSchema(), RENEWAL_DOC_FIELDS)
        answers, answer_errors = _renewal_answers(docs)
        if answer_errors:
            errors = {**(errors or {}), **answer_errors}
        if errors is None:
            _, errors = run(record_renewal_documents, muni, permit, data["checked_on"], answers)
            if errors is None:
                flash("Documentos da renovação registrados.")
                return redirect(url_for("backoffice.permit_detail", ident=permit.id, _anchor="requisitos"))
        values = raw_values(RENEWAL_DOC_FIELDS)
    since, act = cycle_start(permit)
    return render_template("backoffice/renewal_documents_form.html", permit=permit, docs=docs,
                           choice=_first_documents_choice(muni),
                           states={i.key[len("renewal."):]: i for i in renewal_items(muni, permit)},
                           since=since, act=act, fields=RENEWAL_DOC_FIELDS, values=values, errors=errors or {},
                           form=request.form if request.method == "POST" else {},
                           stray=stray_errors({k: v for k, v in (errors or {}).items() if not k.startswith("doc:")},
                                              RENEWAL_DOC_FIELDS)), (422 if errors else 200)


def _first_documents_choice(muni):
    """Sapezal art. 10 § 4º: whether the municipality asks every document of the first alvará."""
    basis = ALL_FIRST_DOCUMENTS.get(muni.slug)
    if basis is None:
        return None
    return {"basis": basis, "required": bool(muni.setting(ALL_FIRST_DOCUMENTS_SETTING)),
            "source": muni.setting("renewal_documents_source") or ""}


@routes.post("/bo/permissoes/<int(max=2147483647):ident>/renovacao/exigencia")
@staff_view
def renewal_first_documents(ident):
    permit = get_scoped_or_404(Permit, ident)
    source = (request.form.get("source") or "").strip()
    if not 3 <= len(source) <= 200:
        flash("Informe o ato (decreto, portaria) que decide a exigência, com 3 a 200 caracteres.")
    else:
        _, errors = run(set_renewal_first_documents, municipality(), request.form.get("required") == "1", source)
        flash("Exigência registrada." if errors is None else " ".join(m for ms in errors.values() for m in ms))
    return redirect(url_for("backoffice.renewal_documents", ident=permit.id))
