"""Name search ignores accents and case: "joao" finds "João", "CONCEICAO" finds "Conceição"."""
from helpers import login
from server.core.validation import fold
from server.extensions import db
from server.modules.registry.models import Municipality, Operator


def test_fold():
    assert fold("  João   Antônio da CONCEIÇÃO ") == "joao antonio da conceicao"
    assert fold(None) == ""


def test_operator_and_permit_search_ignore_accents_and_case(client, app, demo):
    with app.app_context():
        muni = Municipality.query.filter_by(slug="sapezal").one()
        operator = Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id).first()
        operator.name = "Conceição Gonçalves Araújo"
        db.session.commit()
        assert operator.name_search == "conceicao goncalves araujo"
    login(client, "backoffice.sapezal")
    for query in ("conceicao", "GONCALVES araujo", "Araújo"):
        html = client.get("/bo/operadores/", query_string={"q": query}).get_data(as_text=True)
        assert "Conceição Gonçalves Araújo" in html, query
    html = client.get("/bo/permissoes/", query_string={"q": "goncalves"}).get_data(as_text=True)
    assert "Conceição Gonçalves Araújo" in html
