"""Helpers shared by test modules (import with `from helpers import ...`).

They live outside conftest.py because tests/e2e has a conftest of its own and two modules named
`conftest` cannot both be imported by name.
"""
import re

DEMO_PASSWORD = "demo-motofiscal"


def csrf_token(client, path="/login"):
    page = client.get(path)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert match, f"no CSRF token on {path}"
    return match.group(1)


def login(client, username, password=DEMO_PASSWORD):
    response = client.post("/login", data={"username": username, "password": password,
                                           "csrf_token": csrf_token(client)})
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response


def api_token(client, username, password=DEMO_PASSWORD):
    response = client.post("/api/v1/auth/token", json={"username": username, "password": password})
    assert response.status_code == 200, response.json
    return {"Authorization": f"Bearer {response.json['token']}"}
