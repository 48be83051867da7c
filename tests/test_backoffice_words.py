"""Words true on every back-office page (issue 34, item 4): a crawler logs in as each
municipality's clerk and its administrator, follows every link of the back office from the
dashboard (the demo registry plus a stop synced in each municipality: an inspection with answers
in every area, an auto, a communication to the traffic authority), and fails on an English word or
a raw key of the rule packs on any page — "Conduct", "Parking", "Pickup", `sapezal.prazo_defesa`.
The raw signed record (`<pre>`, `<code>`) is the record as signed, and may show its keys."""
import html
import re
from urllib.parse import urldefrag, urljoin, urlparse

import pytest

from fieldsync_device import FakeDevice
from helpers import login

MAX_PAGES = 260  # per caller: the demo's screens, one of each kind of record and its lists
SKIP = re.compile(r"(/logout|/sair|formato=csv|\.csv|\.pdf|\.png|\.jpg|/foto|/static/|/api/|/app/|/V/|/N/|/a/|"
                  r"[?&](page|pagina)=\d{2,})")
# Words of the code or of English that a pt-BR screen never shows (whole words, as written).
ENGLISH = re.compile(r"\b(Conduct|Parking|Pickup|Service|Goods|Context|Vehicle|Driver|Passenger|Equipment|Operator|"
                     r"Permit|Insurance|Document|None|True|False|null|undefined|NaN|pending|confirmed|removed|"
                     r"communicate)\b")
# A key of the packs: a municipality's or a pack's prefix, or a fact's area, then dotted snake case.
RAW_KEY = re.compile(r"\b(?:sapezal|paranatinga|nortelandia|fed|sap|par|nl|driver|vehicle|equipment|passenger|"
                     r"conduct|parking|pickup|context|service|goods|insurance|document)\.[a-z][a-z0-9_]*"
                     r"(?:\.[a-z0-9_]+)*\b")
HIDDEN = re.compile(r"<(script|style|pre|code|textarea|select)\b.*?</\1>", re.S | re.I)
TAG = re.compile(r"<[^>]+>")


def _visible(page):
    """The text a person reads: tags, scripts and the raw record out, entities decoded. Attribute
    values a screen reader says (aria-label, title, placeholder, alt) are kept."""
    said = " ".join(re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', page))
    return html.unescape(TAG.sub(" ", HIDDEN.sub(" ", page)) + " " + said)


def _links(base, page):
    for href in re.findall(r'href="([^"#][^"]*)"', page):
        url = urldefrag(urljoin(base, html.unescape(href)))[0]
        parsed = urlparse(url)
        if parsed.netloc in ("", "localhost") and not SKIP.search(url):
            yield parsed.path + (f"?{parsed.query}" if parsed.query else "")


def _sync_a_stop(client, slug):
    """An inspection answering every fact of the municipality's packs, whose vest failure is the CTB
    infraction communicated to the traffic authority, and an auto of the stop."""
    from server.rules import load_municipality
    rules = load_municipality(slug)
    answers = {}
    for name, decl in rules.facts.items():
        if decl.get("source") not in (None, "checklist", "fiscal"):
            continue
        kind = decl.get("type")
        answers[name] = (decl.get("values") or ["x"])[0] if kind == "enum" else \
            {"number": 1, "bool": True, "date": "2026-01-10"}.get(kind, "x")
    ctb = {"id": "fed.inf.ctb244_ix", "label_pt": "Transporte remunerado em desacordo com as normas do mototaxista",
           "citation": {"law": "CTB", "art": "244", "inciso": "IX"}, "jurisdiction": "snt",
           "triggered_by": ["fed.req.colete_retrorrefletivo"]}
    phone = FakeDevice(client, f"fiscal.{slug}")
    inspection = phone.body("inspection", answers=answers, answer_sources={k: "fiscal" for k in answers},
                            evaluation={"failed": [{"requirement": "fed.req.colete_retrorrefletivo",
                                                    "label_pt": "Condutor de colete com dispositivos retrorrefletivos"}],
                                        "infractions": [ctb]},
                            decisions={ctb["id"]: {"decision": "communicate", "reason": ""}})
    municipal = next(i for i in rules.infractions if i.get("jurisdiction") != "snt" and i["id"].split(".")[0] != "fed")
    auto = phone.auto(phone.reserve(1)[0], inspection_id=inspection["id"], place="Av. Brasil, 100",
                      infractions=[{"id": municipal["id"], "citation": municipal["citation"], "label_pt": municipal["label_pt"],
                                    "amount": None, "amount_brl": None, "decision": "confirmed", "removal_reason": None}])
    assert [r["status"] for r in phone.push([phone.record(inspection), auto]).json["results"]] == ["accepted"] * 2


@pytest.mark.parametrize("who", ["backoffice", "admin"])
def test_no_english_word_or_raw_key_on_any_back_office_page(app, client, demo, who):
    from server.extensions import db
    from server.modules.accounts.operations import create_user
    from server.modules.registry.models import Municipality
    for slug in ("sapezal", "paranatinga", "nortelandia"):
        _sync_a_stop(client, slug)
    problems, visited = [], 0
    for slug in ("sapezal", "paranatinga", "nortelandia"):
        username = f"{who}.{slug}"
        if who == "admin":
            with app.app_context():
                create_user(Municipality.query.filter_by(slug=slug).one().id,
                            {"username": username, "name": f"Administração de {slug}", "role": "admin",
                             "password": "demo-motofiscal"})
                db.session.commit()  # as `flask users create-admin`
        clerk = app.test_client()
        login(clerk, username)
        queue, seen = ["/bo/"], set()
        while queue and len(seen) < MAX_PAGES:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            response = clerk.get(path)
            if response.status_code >= 500:
                problems.append(f"{slug} {path}: {response.status_code}")
            if response.status_code != 200 or not response.mimetype == "text/html":
                continue
            page = response.get_data(as_text=True)
            text = _visible(page)
            for found in sorted(set(ENGLISH.findall(text)) | set(RAW_KEY.findall(text))):
                problems.append(f"{slug} {path}: {found}")
            queue.extend(link for link in _links(f"http://localhost{path}", page) if link not in seen)
        visited += len(seen)
    assert visited > 120, visited  # the crawl reached the screens, not only the dashboard
    assert not problems, "\n".join(problems)
