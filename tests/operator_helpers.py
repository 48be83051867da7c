"""An operator's phone in the tests: first access through the real API (issue 37's tests)."""


def operator_headers(app, client, operator_id):
    """Bearer headers of `operator_id`'s app, activated with a fresh first-access code."""
    from server.extensions import db
    from server.modules.operator_portal.operations import create_operator_access
    from server.modules.registry.models import Municipality, Operator
    with app.app_context():
        operator = db.session.get(Operator, operator_id)
        slug = db.session.get(Municipality, operator.municipality_id).slug
        code = create_operator_access(operator)
        db.session.commit()
    response = client.post("/api/v1/operator/activate", json={"municipality": slug, "code": code})
    assert response.status_code == 200, response.json
    return {"Authorization": f"Bearer {response.json['token']}"}
