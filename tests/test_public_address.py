"""Each municipality's "Endereço público" (issue 36, Build 7): its crachás' QR, its
notificações' QR and the links of its notices name its own address when set, the server's
PUBLIC_BASE_URL otherwise; the page that the QR opens answers under either host."""
from autos_process_helpers import ensure_key, homologated_case
from helpers import csrf_token, login

from server.extensions import db
from server.modules.autos.process_models import AutoNotification
from server.modules.credentials.operations import find_permit, issue_credential
from server.modules.notices.models import Notice
from server.modules.onboarding.operations import set_public_address
from server.modules.registry.models import Municipality

OWN = "https://motofiscal.paranatinga.mt.gov.br"


def _muni(slug):
    return Municipality.query.filter_by(slug=slug).one()


def _first_active(muni):
    from server.modules.credentials.bulk import without_current_credential
    return without_current_credential(muni.id).first()


def test_crachá_qr_uses_the_municipality_address_else_the_server(app, client, demo):
    ensure_key(app, "paranatinga")
    ensure_key(app, "sapezal")
    with app.app_context():
        set_public_address(_muni("paranatinga"), OWN + "/")
        own = issue_credential(_first_active(_muni("paranatinga")))
        other = issue_credential(_first_active(_muni("sapezal")))  # no address of its own
        own_payload, other_payload = own.payload, other.payload
        assert own_payload.startswith("HTTPS://MOTOFISCAL.PARANATINGA.MT.GOV.BR/V/")
        assert other_payload.startswith("HTTP://LOCALHOST:5000/V/")
        # Cleared: back to the server's address for the next crachá.
        set_public_address(_muni("paranatinga"), "")
        assert "public_base_url" not in _muni("paranatinga").settings
        permit = find_permit(_muni("paranatinga"), own.permit_number)
        again = issue_credential(permit, reason="dados alterados")
        assert again.payload.startswith("HTTP://LOCALHOST:5000/V/")
        db.session.commit()  # as the requests that made them
    # The printed crachá keeps verifying: the host is not signed, the code is what the page reads.
    code = own_payload.rsplit("/V/", 1)[1]
    page = client.get(f"/V/{code}", headers={"Host": "motofiscal.paranatinga.mt.gov.br"})
    # Found and checked (it was superseded above), not "danificado": the host played no part.
    assert page.status_code == 200 and "substituída por uma via mais recente" in page.get_data(as_text=True)


def test_notificação_and_its_notice_use_the_municipality_address(app, client, demo):
    with app.app_context():
        set_public_address(_muni("paranatinga"), OWN)
        db.session.commit()  # as the admin's request
    case_id, _ = homologated_case(app, client, "paranatinga", days_ago=1)
    login(client, "backoffice.paranatinga")
    token = csrf_token(client, f"/autos/{case_id}/processo")
    assert client.post(f"/autos/{case_id}/processo/notificar", data={"csrf_token": token}).status_code == 303
    with app.app_context():
        note = AutoNotification.query.filter_by(case_id=case_id).one()
        assert note.payload.startswith("HTTPS://MOTOFISCAL.PARANATINGA.MT.GOV.BR/N/")
        notice = Notice.query.filter_by(case_id=case_id, kind="notificacao").first()
        assert notice is not None and f"{OWN}/app/#/operador/autos" in notice.body
        db.session.remove()


def test_the_address_is_checked_like_public_base_url(app, demo):
    import pytest
    from server.core.errors import ApiError
    with app.app_context():
        for bad in ("ftp://x.br", "https://x.br/caminho", "https://" + "a" * 70 + ".br"):
            with pytest.raises(ApiError) as refused:
                set_public_address(_muni("sapezal"), bad)
            assert "public_base_url" in refused.value.fields
            db.session.rollback()


def test_phones_get_the_address_for_the_operator_copy_without_a_stale_304(app, client, demo):
    from helpers import api_token
    fiscal = api_token(client, "fiscal.sapezal")
    first = client.get("/api/v1/field/data?cursor=0", headers=fiscal)
    assert first.json["municipality"]["public_base_url"] is None  # the field app's own origin, as before
    cursor, etag = first.json["cursor"], first.headers["ETag"]
    with app.app_context():
        set_public_address(_muni("sapezal"), "https://motofiscal.sapezal.mt.gov.br")
        db.session.commit()  # as the admin's request
    delta = client.get(f"/api/v1/field/data?cursor={cursor}", headers={**fiscal, "If-None-Match": etag})
    assert delta.status_code == 200
    assert delta.json["municipality"]["public_base_url"] == "https://motofiscal.sapezal.mt.gov.br"
