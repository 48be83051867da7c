"""The first-day screen (issue 36, Build 5): each item's state is read from the municipality's
data and flips when the thing is configured; admin only, one municipality's data; the dashboard
links it for admins until every required item is done."""
import re
from datetime import date

from helpers import csrf_token, login

from server.core.audit import AuditLog
from server.core.clock import local_today
from server.extensions import db
from server.modules.accounts.models import Device, User
from server.modules.registry.models import Municipality, UnitValue

PASSWORD = "senha-forte-123"


def _admin(app, slug):
    from server.modules.onboarding.operations import create_admin
    with app.app_context():
        create_admin(Municipality.query.filter_by(slug=slug).one(), f"adm.{slug}", f"Adm {slug}", PASSWORD)
        db.session.commit()


def states(client):
    page = client.get("/bo/primeiro-dia")
    assert page.status_code == 200, page.get_data(as_text=True)[:300]
    html = page.get_data(as_text=True)
    return dict(re.findall(r'id="item-([a-z]+)".*?data-state="([a-z]+)"', html, re.S)), html


def _muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def _post(client, path, **data):
    return client.post(path, data={"csrf_token": csrf_token(client, "/bo/primeiro-dia"), **data})


def test_each_item_flips_when_configured_and_the_dashboard_links_until_done(app, client, demo):
    from server.modules.autos.process_operations import save_process_settings, steps_for_municipality
    from server.modules.calendar.operations import add_closure
    from server.modules.rules.service import composed_for
    from server.modules.rules.settings import configurable_keys, save_value

    _admin(app, "sapezal")
    login(client, "adm.sapezal", PASSWORD)
    state, html = states(client)
    assert state["chave"] == "pendente" and state["prazos"] == "pendente" and state["valores"] == "pendente"
    assert state["endereco"] == "opcional" and state["crachas"] == "pendente"
    with app.app_context():
        decree_keys = [k for k in configurable_keys(composed_for(_muni("sapezal"))) if k["kind"] == "decree_amounts"]
    # Sapezal's law leaves every fine amount to a decree: the screen counts them.
    assert len(decree_keys) > 40 and f"0 de {len(decree_keys)} valores definidos" in html
    assert 'id="first-day-link"' in client.get("/bo/").get_data(as_text=True)

    # The signing key, created from the screen (audited).
    assert _post(client, "/bo/primeiro-dia/chave").status_code == 302
    assert states(client)[0]["chave"] == "feito"

    # The public address: refused with the field named, then saved (audited), then cleared.
    bad = _post(client, "/bo/primeiro-dia/endereco", public_base_url="https://x.br/caminho")
    assert bad.status_code == 422 and 'id="err-public_base_url"' in bad.get_data(as_text=True)
    assert _post(client, "/bo/primeiro-dia/endereco",
                 public_base_url="https://motofiscal.sapezal.mt.gov.br/").status_code == 302
    state, html = states(client)
    assert state["endereco"] == "feito" and "https://motofiscal.sapezal.mt.gov.br." in html

    with app.app_context():
        muni = _muni("sapezal")
        assert muni.settings["public_base_url"] == "https://motofiscal.sapezal.mt.gov.br"
        assert AuditLog.query.filter_by(action="public_address", municipality_id=muni.id).count() == 1
        assert AuditLog.query.filter_by(action="key_create", municipality_id=muni.id).count() == 1
        # Deadlines and authority: the defence deadline Sapezal's law leaves open, then the authority.
        for step in steps_for_municipality(muni):
            if step["days"] is None:
                save_value(muni, "deadlines", step["config_key"], 15, "Decreto nº 1/2026")
        db.session.commit()  # as the clerk's requests
    assert states(client)[0]["prazos"] == "pendente"  # the authority is still missing
    with app.app_context():
        save_process_settings(_muni("sapezal"), {"authority_pt": "Secretário Municipal de Obras"})
        # Decree amounts, in UFM; then the UFM's value.
        for k in decree_keys[:-1]:
            save_value(_muni("sapezal"), "decree_amounts", k["key"],
                       {"valid_from": "2026-01-01", "unit": "UFM", "value": 10, "decree": "Decreto nº 2/2026"},
                       "Decreto nº 2/2026")
        UnitValue.query.filter_by(municipality_id=_muni("sapezal").id, unit="UFM").delete()
        db.session.commit()
    state, html = states(client)
    assert state["prazos"] == "feito"
    assert state["valores"] == "pendente" and f"{len(decree_keys) - 1} de {len(decree_keys)} valores definidos" in html
    assert state["unidades"] == "pendente" and "Sem valor em R$: UFM." in html
    with app.app_context():
        muni = _muni("sapezal")
        k = decree_keys[-1]
        save_value(muni, "decree_amounts", k["key"],
                   {"valid_from": "2026-01-01", "unit": "UFM", "value": 10, "decree": "Decreto nº 2/2026"}, "Decreto nº 2/2026")
        db.session.add(UnitValue(municipality_id=muni.id, unit="UFM", value_brl=2.5, valid_from=date(2026, 1, 1),
                                 source="Decreto nº 3/2026"))
        db.session.commit()
    state, _ = states(client)
    assert state["valores"] == "feito" and state["unidades"] == "feito"

    # Fiscais and phones.
    with app.app_context():
        muni = _muni("sapezal")
        fiscais = User.query.filter_by(municipality_id=muni.id, role="fiscal").all()
        assert fiscais  # the demo's
        fiscal_id = fiscais[0].id
        for user in fiscais:
            user.active = False
        db.session.commit()
    state, _ = states(client)
    assert state["fiscais"] == "pendente" and state["aparelhos"] == "pendente"
    with app.app_context():
        muni = _muni("sapezal")
        for user in User.query.filter_by(municipality_id=muni.id, role="fiscal"):
            user.active = True
        db.session.add(Device(municipality_id=muni.id, user_id=fiscal_id, name="Celular 1"))
        db.session.commit()
    state, _ = states(client)
    assert state["fiscais"] == "feito" and state["aparelhos"] == "feito"

    # Crachás, in bulk, until every permit in force has one.
    token = csrf_token(client, "/bo/crachas/lote")
    while 'id="issue-all"' in client.get("/bo/crachas/lote").get_data(as_text=True):
        assert client.post("/bo/crachas/lote", data={"csrf_token": token, "scope": "todas"}).status_code == 303
    assert states(client)[0]["crachas"] == "feito"

    # Operator photos (optional: the crachá prints a silhouette): one for every driver in force.
    assert states(client)[0]["fotos"] == "opcional"
    with app.app_context():
        import io

        from PIL import Image

        from server.modules.registry.models import Operator
        from server.modules.registry.photos import store_operator_photo
        jpeg = io.BytesIO()
        Image.new("RGB", (60, 80), (90, 90, 200)).save(jpeg, "JPEG")
        for operator in Operator.query.filter_by(municipality_id=_muni("sapezal").id, photo_path=None).all():
            store_operator_photo(operator, jpeg.getvalue())
        db.session.commit()  # as the clerk's uploads
    assert states(client)[0]["fotos"] == "feito"

    # The calendar: one municipal holiday of this year.
    assert states(client)[0]["calendario"] == "pendente"
    with app.app_context():
        add_closure(_muni("sapezal"), {"day": date(local_today().year, 10, 2), "kind": "feriado_religioso",
                                       "name_pt": "Padroeira", "act": "Lei municipal nº 10/2001"})
        db.session.commit()
    state, html = states(client)
    required = ("prazos", "valores", "unidades", "chave", "fiscais", "aparelhos", "crachas", "calendario")
    assert all(state[k] == "feito" for k in required), state
    assert 'id="first-day-ready"' in html
    assert 'id="first-day-link"' not in client.get("/bo/").get_data(as_text=True)


def test_admin_only_and_one_municipality(app, client, demo):
    _admin(app, "sapezal")
    _admin(app, "paranatinga")
    login(client, "backoffice.sapezal")
    assert client.get("/bo/primeiro-dia").status_code == 403
    assert 'id="first-day-link"' not in client.get("/bo/").get_data(as_text=True)  # admins only
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "adm.sapezal", PASSWORD)
    assert _post(client, "/bo/primeiro-dia/chave").status_code == 302
    assert states(client)[0]["chave"] == "feito"
    client.post("/logout", data={"csrf_token": csrf_token(client, "/bo/")})
    login(client, "adm.paranatinga", PASSWORD)
    assert states(client)[0]["chave"] == "pendente"  # Sapezal's key is not Paranatinga's
    # No CSRF token: refused.
    assert client.post("/bo/primeiro-dia/chave").status_code == 400


def test_a_law_pack_the_server_cannot_compose_is_said_not_a_500(app, client, demo):
    _admin(app, "sapezal")
    with app.app_context():
        muni = _muni("sapezal")
        muni.slug = "sapezal-sem-pacote"  # no pack on disk is written for this municipality any more
        db.session.commit()
    login(client, "adm.sapezal", PASSWORD)
    state, html = states(client)
    assert state["regras"] == "pendente" and "prazos" not in state
