"""Back office: the law as encoded (catalogue) and the municipality's rule configuration."""

from datetime import date as _date

from flask import g, jsonify, redirect, render_template, request, url_for

from ...core.auth import STAFF_ROLES, login_required, require_municipality_id
from ...core.clock import local_today
from ...core.errors import ApiError
from ...core.routes import RouteTable
from ...extensions import db
from ...rules.dates import MAX_ORD, MIN_ORD
from ..registry.models import Municipality, UnitValue
from .citations import format_citation, penalty_label
from .configuration_page import KIND_TITLES, anchor, current_state, grouped, note_words
from .draft_preview import DraftError, compose_draft, parse_day, preview, read_draft
from .service import composed_for
from .settings import (
    AMOUNT_UNITS,
    PERIOD_UNITS,
    VETO_OPTIONS,
    configurable_keys,
    current_values,
    default_values,
    parse_value,
    save_value,
)

routes = RouteTable()


def _municipality():
    return db.session.get(Municipality, require_municipality_id())


@routes.app_template_filter("citation")
def _citation_filter(citation):
    composed = g.get("_composed")
    return format_citation(composed, citation) if composed is not None else ""


@routes.app_template_filter("vigencia")
def _vigencia_filter(entry):
    """"em vigor desde 01/03/2026" / "até 28/02/2026": the period of one wording, when the
    provision has had several (SPEC §3 "Amendments"); "" for a provision with one."""
    composed = g.get("_composed")
    if composed is None or len(composed.versions.get(entry.get("id"), ())) < 2:
        return ""
    start = "" if entry["_from"] <= MIN_ORD else f"de {_date.fromordinal(entry['_from']).strftime('%d/%m/%Y')}"
    end = "" if entry["_to"] >= MAX_ORD else f"até {_date.fromordinal(entry['_to']).strftime('%d/%m/%Y')}"
    return " ".join(x for x in (start, end) if x)


@routes.app_template_filter("penalty")
def _penalty_filter(kind):
    return penalty_label(kind)


@routes.get("/")
@login_required(*STAFF_ROLES)
def catalogue():
    muni = _municipality()
    composed = g._composed = composed_for(muni)
    today = local_today().isoformat()
    return render_template("rules/catalogue.html", composed=composed, today=today,
                           sources=(muni.settings or {}).get("rules_sources", {}),
                           words=note_words(composed, configurable_keys(composed)),
                           label_of=lambda i: (composed.by_id.get(i) or {}).get("label_pt") or i)


def _saved_in_place():
    """The page's script saves one key with fetch and asks for JSON (rules-configuration.js);
    without it the form posts and is redirected back to the key's anchor."""
    return request.headers.get("X-Requested-With") == "fetch"


def _page_context(muni, composed, keys):
    registered = {u for (u,) in db.session.query(UnitValue.unit).filter(
        UnitValue.municipality_id == muni.id).distinct()}
    return {"groups": grouped(composed, keys), "values": current_values(muni),
            "defaults": default_values(composed), "sources": (muni.settings or {}).get("rules_sources", {}),
            "veto_options": VETO_OPTIONS, "period_units": PERIOD_UNITS, "amount_units": AMOUNT_UNITS,
            "registered_units": sorted(registered), "kind_titles": KIND_TITLES}


@routes.route("/configuracao", methods=["GET", "POST"])
@login_required("admin", "backoffice")
def configuration():
    muni = _municipality()
    composed = g._composed = composed_for(muni)
    keys = configurable_keys(composed)
    errors, form_key = {}, None
    if request.method == "POST":
        form_key = request.form.get("key")
        row = next((k for k in keys if k["key"] == form_key and k["kind"] == request.form.get("kind")), None)
        if row is None:
            raise ApiError(404, "not_found")
        try:
            value = parse_value(row, request.form)
            save_value(muni, row["kind"], row["key"], value, request.form.get("source"))
        except ApiError as exc:
            errors = exc.fields
            if _saved_in_place():
                return jsonify({"ok": False, "message": f"Não salvo: {row['label_pt']}. Corrija o campo indicado.",
                                "errors": errors}), 422
        else:
            message = f"Configuração salva e registrada na auditoria: {row['label_pt']}."
            if _saved_in_place():
                context = _page_context(muni, composed, keys)
                current = context["values"][row["kind"]].get(row["key"])
                html = render_template("rules/_config_current.html", row={**row, "anchor": anchor(row)},
                                       state=current_state(row, current, context["defaults"][row["kind"]].get(row["key"])),
                                       **context)
                return jsonify({"ok": True, "message": message, "current_html": html})
            # Back to the key, its message beside it (a flash at the top would be out of sight).
            return redirect(url_for("rules_bo.configuration", salvo=anchor(row), _anchor=anchor(row)))
    return render_template("rules/configuration.html", errors=errors, form_key=form_key, form=request.form,
                           current_state=current_state, **_page_context(muni, composed, keys)), \
        (422 if errors else 200)


@routes.route("/rascunho", methods=["GET", "POST"])
@login_required("admin", "backoffice")
def draft_preview():
    """A draft pack before it is published to phones: checker, checklist, verdicts, auto."""
    muni = _municipality()
    context = {"errors": {}, "day": local_today(), "pack_json": "", "law_text": "", "pack": None}
    if request.method == "POST":
        try:
            pack, text, uploaded = read_draft(request.form, request.files)
            day = parse_day(request.form.get("date"), local_today())
            problems, rules, reports, changed = compose_draft(muni, pack, uploaded)
        except DraftError as exc:
            context["errors"] = {exc.field: [str(exc)]}
            return render_template("rules/draft.html", **context), 422
        g._composed = rules
        context.update(pack=pack, pack_json=text, law_text=uploaded or "", day=day, problems=problems,
                       reports=reports, changed=changed, rules=rules,
                       errors_count=sum(p["severity"] == "erro" for p in problems),
                       view=preview(rules, day, request.form) if rules is not None else None)
    return render_template("rules/draft.html", **context)
