"""Permit validity changes only through the lifecycle, never by a plain edit."""
from datetime import date, timedelta

import pytest

from server.core.errors import ApiError
from server.extensions import db
from server.modules.registry.models import Municipality, Permit
from server.modules.permits.operations import change_permit_status, update_permit


def _data(permit, **over):
    data = {"number": permit.number, "kind": permit.kind, "holder_operator_id": permit.holder_operator_id,
            "holder_company_id": permit.holder_company_id, "driver_ids": [d.id for d in permit.drivers],
            "vehicle_id": permit.vehicle_id, "ponto_id": permit.ponto_id, "issued_on": permit.issued_on,
            "valid_from": permit.valid_from, "valid_until": permit.valid_until, "notes": "editado"}
    data.update(over)
    return data


def test_edit_cannot_move_validity_but_renew_can(app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        old_until = permit.valid_until
        with pytest.raises(ApiError) as err:
            update_permit(permit, muni, _data(permit, valid_until=old_until + timedelta(days=365)))
        assert "Renovar" in err.value.fields["valid_until"][0]
        assert db.session.get(Permit, permit.id).valid_until == old_until
        assert update_permit(permit, muni, _data(permit)).notes == "editado"  # other fields still edit
        # Sapezal: renewed until the next 31 March (Lei 125/1999, art. 10, § 1º), proposed by the law.
        march = date(old_until.year, 3, 31)
        expected = march if march > old_until else date(old_until.year + 1, 3, 31)
        renewed = change_permit_status(permit, "renew", "Renovação anual")
        assert renewed.valid_until == expected
        assert renewed.history[-1].action == "renew" and renewed.history[-1].reason == "Renovação anual"


def test_renewal_reminds_to_reissue_the_crachá(client, app, demo):
    from helpers import csrf_token, login
    from server.modules.credentials.operations import create_key, issue_credential
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        create_key(muni)
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
        issue_credential(permit)
        ident = permit.id
        db.session.commit()  # as the requests that made them
    login(client, "backoffice.sapezal")
    token = csrf_token(client, f"/bo/permissoes/{ident}")
    page = client.post(f"/bo/permissoes/{ident}/acoes/renew", data={
        "csrf_token": token, "reason": "Renovação anual"},
        follow_redirects=True).get_data(as_text=True)
    assert "Renovação registrada." in page
    assert "reemita-o com o motivo" in page
