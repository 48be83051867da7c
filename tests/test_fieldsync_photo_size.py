"""The evidence photo size (issue 24 item 4): a municipal setting in the back office, with its
trade-off stated, that reaches every phone in the field data (`photo_size`)."""
from helpers import api_token, csrf_token, login

PAGE = "/bo/fotos-de-evidencia"


def _field(client, headers, cursor=0, **extra):
    return client.get(f"/api/v1/field/data?cursor={cursor}", headers={**headers, **extra})


def _save(client, **form):
    return client.post(PAGE, data={"csrf_token": csrf_token(client, PAGE), **form})


def test_phones_get_the_default_then_the_chosen_size_without_a_stale_304(app, client, demo):
    fiscal = api_token(client, "fiscal.sapezal")
    first = _field(client, fiscal)
    assert first.json["photo_size"] == {"long_edge": 1600, "quality": 0.8}
    cursor, etag = first.json["cursor"], first.headers["ETag"]

    login(client, "backoffice.sapezal")
    page = client.get(PAGE).get_data(as_text=True)
    assert "Nenhuma lei fixa o tamanho da foto" in page and "~170 KB" in page  # the trade-off, with the measure
    saved = _save(client, long_edge="2048", quality="0.7")
    assert saved.status_code == 303
    assert "Tamanho salvo" in client.get(saved.headers["Location"]).get_data(as_text=True)

    # The phone holding the old version is not answered 304: it gets the new size in a delta.
    delta = _field(client, fiscal, cursor, If_None_Match=etag)
    assert delta.status_code == 200 and delta.json["snapshot"] is False
    assert delta.json["photo_size"] == {"long_edge": 2048, "quality": 0.7}
    assert delta.json["permits"] == []  # a size change carries no registry row

    from server.core.audit import AuditLog
    with app.app_context():
        entry = AuditLog.query.filter_by(action="photo_size_settings").one()
        assert entry.after == {"long_edge": 2048, "quality": 0.7}


def test_a_size_outside_the_choices_is_named_in_portuguese(client, demo):
    login(client, "backoffice.sapezal")
    bad = _save(client, long_edge="99999", quality="abc")
    assert bad.status_code == 422
    text = bad.get_data(as_text=True)
    assert "Escolha um dos tamanhos" in text and "Escolha uma das qualidades JPEG" in text
    assert 'id="photo-long_edge" name="long_edge" aria-invalid="true"' in text


def test_scoped_to_the_municipality_and_to_staff(app, client, demo):
    login(client, "backoffice.sapezal")
    assert _save(client, long_edge="1280", quality="0.6").status_code == 303
    other = api_token(client, "fiscal.paranatinga")
    assert _field(client, other).json["photo_size"] == {"long_edge": 1600, "quality": 0.8}
    # A fiscal has no back-office session; its API token opens no back-office page.
    stranger = app.test_client()
    fiscal = api_token(stranger, "fiscal.sapezal")
    assert stranger.get(PAGE, headers=fiscal).status_code in (302, 401, 403)
    assert stranger.post(PAGE, data={"long_edge": "2560", "quality": "0.9"}, headers=fiscal).status_code in (302, 400, 401, 403)
    assert _field(stranger, fiscal).json["photo_size"] == {"long_edge": 1280, "quality": 0.6}
