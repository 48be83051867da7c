"""Small things a newcomer trips on: a refused login keeps the user name, a favicon, the
Legislação page's table of contents."""
import re


def test_refused_login_keeps_the_user_name_not_the_password(client, app):
    from helpers import csrf_token

    response = client.post("/login", data={"username": "maria.silva", "password": "senha-errada-123",
                                           "csrf_token": csrf_token(client)})
    assert response.status_code == 401
    html = response.get_data(as_text=True)
    assert 'value="maria.silva"' in html
    assert "senha-errada-123" not in html
    # The cursor goes to the password, the field still to fill.
    assert re.search(r'<input name="password"[^>]*autofocus', html)
    fresh = client.get("/login").get_data(as_text=True)
    assert re.search(r'<input name="username"[^>]*autofocus', fresh) and 'value="maria.silva"' not in fresh


def test_every_page_has_a_favicon(client, app):
    html = client.get("/login").get_data(as_text=True)
    href = re.search(r'<link rel="icon" type="image/svg\+xml" href="([^"]+)">', html).group(1)
    icon = client.get(href)
    assert icon.status_code == 200 and icon.mimetype == "image/svg+xml" and b"<svg" in icon.data
    legacy = client.get("/favicon.ico")
    assert legacy.status_code == 301 and legacy.headers["Location"].endswith(href)


def test_legislacao_has_a_table_of_contents_whose_links_land(client, app, demo, login_as):
    login_as("backoffice.paranatinga")
    html = client.get("/bo/regras/").get_data(as_text=True)
    toc = re.search(r'<nav class="card toc".*?</nav>', html, re.S).group(0)
    targets = re.findall(r'href="#([^"]+)"', toc)
    assert "paranatinga-lei-311-2007" in targets and "paranatinga-lei-311-2007-vetos" in targets
    assert "federal-base-exigencias" in targets
    for target in targets:  # every entry points at an element of the page
        assert f'id="{target}"' in html, target
