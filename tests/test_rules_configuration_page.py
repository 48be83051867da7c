""""Configuração das regras" as a clerk uses it: grouped, labelled (no internal keys shown),
pt-BR money and dates, one unit list with "Unidades fiscais", saved in place (JSON for the
page's script) or by a plain POST redirected back to the key's anchor; legal checks kept."""
import re

from helpers import csrf_token, login
from server.modules.rules.service import composed_for

URL = "/bo/regras/configuracao"
IN_PLACE = {"X-Requested-With": "fetch"}


def _keys(app, slug, kind):
    from server.modules.registry.models import Municipality
    from server.modules.rules.settings import configurable_keys
    with app.app_context():
        return [k for k in configurable_keys(composed_for(Municipality.query.filter_by(slug=slug).one()))
                if k["kind"] == kind]


def _visible_text(html):
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", html, flags=re.S)
    html = re.sub(r'<input type="hidden"[^>]*>', "", html)
    return re.sub(r"<[^>]+>", " ", html)


def test_page_is_grouped_and_shows_labels_not_keys(app, client, demo):
    login(client, "backoffice.sapezal")
    html = client.get(URL).get_data(as_text=True)
    text = _visible_text(html)
    for key in _keys(app, "sapezal", "decree_amounts") + _keys(app, "sapezal", "options"):
        assert key["key"] not in text, key["key"]  # only in hidden inputs
        assert key["label_pt"].split("\n")[0][:40] in html.replace("&#34;", '"').replace("&#39;", "'")
    assert "chave " not in text
    for title in ("Valores fixados por decreto", "Vetos e leituras a decidir"):
        assert f">{title}</h2>" in html
    assert len(re.findall(r'<section class="config-group"', html)) > 2  # by article
    assert 'class="config-filter" hidden' in html  # the filter box appears with the script only
    assert 'src="/static/js/rules-configuration.js"' in html and "<script>" not in html


def test_unit_list_is_the_one_of_unidades_fiscais(app, client, demo):
    from server.modules.registry.models import FISCAL_UNITS
    login(client, "backoffice.sapezal")
    config = client.get(URL).get_data(as_text=True)
    first_select = re.search(r'name="unit"[^>]*>(.*?)</select>', config, re.S).group(1)
    offered = re.findall(r'<option value="([^"]+)"', first_select)
    assert offered == ["BRL", *FISCAL_UNITS]
    assert ">R$ (reais)</option>" in first_select and ">BRL<" not in first_select
    units_page = client.get("/bo/unidades").get_data(as_text=True)
    unit_select = re.search(r'name="unit"[^>]*>(.*?)</select>', units_page, re.S).group(1)
    assert [u for u in re.findall(r'<option value="([^"]*)"', unit_select) if u] == offered[1:]


def test_saving_in_place_answers_json_with_the_new_value_in_ptbr(app, client, demo):
    key = _keys(app, "sapezal", "decree_amounts")[0]
    login(client, "backoffice.sapezal")
    token = csrf_token(client, URL)
    response = client.post(URL, headers=IN_PLACE, data={
        "csrf_token": token, "kind": "decree_amounts", "key": key["key"], "value": "1234,56", "unit": "BRL",
        "amount_kind": "value", "valid_from": "2026-01-01", "source": "Decreto nº 12/2026"})
    assert response.status_code == 200
    assert response.json["ok"] is True and key["label_pt"] in response.json["message"]
    current = response.json["current_html"]
    assert "R$ 1.234,56 desde 01/01/2026 — Decreto nº 12/2026" in current
    assert current.count("Decreto nº 12/2026") == 1  # the act once
    page = client.get(URL).get_data(as_text=True)
    assert "R$ 1.234,56 desde 01/01/2026 — Decreto nº 12/2026" in page
    with app.app_context():
        from server.core.audit import AuditLog
        assert AuditLog.query.filter_by(action="configure_rules").count() == 1


def test_in_place_errors_name_the_field_and_keep_legal_caps(app, client, demo):
    login(client, "backoffice.nortelandia")
    token = csrf_token(client, URL)
    capped = [k for k in _keys(app, "nortelandia", "decree_amounts") if k.get("cap")][0]
    above = client.post(URL, headers=IN_PLACE, data={
        "csrf_token": token, "kind": "decree_amounts", "key": capped["key"], "value": "999", "unit": capped["cap"]["unit"],
        "amount_kind": "value", "valid_from": "2025-01-01", "source": "Decreto nº 10/2025"})
    assert above.status_code == 422 and above.json["ok"] is False
    assert "Acima do teto legal" in above.json["errors"]["value"][0]
    in_reais = client.post(URL, headers=IN_PLACE, data={
        "csrf_token": token, "kind": "decree_amounts", "key": capped["key"], "value": "1", "unit": "BRL",
        "amount_kind": "value", "valid_from": "2025-01-01", "source": "Decreto nº 10/2025"})
    assert in_reais.status_code == 422 and "não em reais" in in_reais.json["errors"]["unit"][0]
    no_csrf = client.post(URL, headers=IN_PLACE, data={"kind": "options", "key": "x", "option": "y"})
    assert no_csrf.status_code == 400


def test_without_script_the_post_redirects_back_to_the_key(app, client, demo):
    option = [k for k in _keys(app, "sapezal", "options") if "medida" in k.get("choices", {})][0]
    login(client, "backoffice.sapezal")
    token = csrf_token(client, URL)
    response = client.post(URL, data={"csrf_token": token, "kind": "options", "key": option["key"],
                                      "option": "medida", "source": "Decreto nº 3/2025"})
    assert response.status_code == 302
    location = response.headers["Location"]
    anchor = location.split("#", 1)[1]
    assert f"salvo={anchor}" in location
    page = client.get(location.split("#")[0]).get_data(as_text=True)
    row = page.split(f'id="{anchor}"', 1)[1].split("</form>", 1)[0]
    assert "Configuração salva e registrada na auditoria" in row
    assert option["choices"]["medida"] in row and "Decreto nº 3/2025" in row
    refused = client.post(URL, data={"csrf_token": token, "kind": "options", "key": option["key"],
                                     "option": "medida", "source": ""})
    assert refused.status_code == 422
    assert re.search(r'name="source"[^>]*aria-invalid="true" autofocus', refused.get_data(as_text=True))


def test_amount_text_formats():
    from server.modules.rules.configuration_page import amount_text, number_pt
    assert number_pt(50.0) == "50" and number_pt(12.5) == "12,5" and number_pt(1234567) == "1.234.567"
    assert amount_text({"valid_from": "2026-01-01", "unit": "UFM", "value": 50.0, "decree": "Decreto 1"}) == \
        "50 UFM desde 01/01/2026 — Decreto 1"
    assert amount_text({"valid_from": "2026-01-01", "unit": "BRL", "max": 1500, "decree": "D"}) == \
        "até R$ 1.500,00 desde 01/01/2026 — D"
