"""One vocabulary per municipality, from its law (registry.vocabulary), on back-office screens;
action buttons are verbs."""
import re

import pytest

from server.modules.registry.models import Municipality, Permit
from server.modules.registry.vocabulary import ACTION_VERBS, BY_PACK, DEFAULT, vocabulary

WORDS = {  # slug: (heading of a permit, holder, plural in the navigation, "active" agreeing)
    "sapezal": ("Alvará de autorização nº", "Condutor autorizado", "Alvarás", "Ativo"),
    "paranatinga": ("Permissão nº", "Permissionário", "Permissões", "Ativa"),
    "nortelandia": ("Autorização nº", "Empresa autorizada", "Autorizações", "Ativa"),
}


def _without_cracha_card(html):
    # The crachá card is the credentials module's template (it words itself).
    return re.sub(r'<div class="cracha-actions".*?</section>', "", html, flags=re.S)


def test_each_law_gives_its_own_words():
    class Muni:  # only `regimes` is read
        def __init__(self, regimes):
            self.regimes = regimes
    assert vocabulary(Muni(["federal-base", "sapezal-lei-125-1999"])).permit == "alvará de autorização"
    assert vocabulary(Muni(["federal-base", "paranatinga-lei-311-2007"])).holder == "permissionário"
    norte = vocabulary(Muni(["federal-base", "nortelandia-lei-030-1998"]))
    assert (norte.permit, norte.document, norte.holder) == ("autorização", "alvará", "empresa autorizada")
    assert vocabulary(Muni(["federal-base"])) is DEFAULT and vocabulary(None) is DEFAULT
    assert BY_PACK["sapezal-lei-125-1999"].status("suspenso") == "Suspenso"
    assert BY_PACK["paranatinga-lei-311-2007"].status("suspenso") == "Suspensa"
    assert BY_PACK["sapezal-lei-125-1999"].new_permit == "Novo alvará de autorização"
    assert BY_PACK["nortelandia-lei-030-1998"].new_permit == "Nova autorização"
    for word in ACTION_VERBS.values():  # verbs: infinitive endings
        assert re.match(r"^\w+(ar|er|ir)\b", word), word


@pytest.mark.parametrize("slug", list(WORDS))
def test_screens_use_the_municipality_words(app, client, demo, login_as, slug):
    heading, holder, nav, active = WORDS[slug]
    with app.app_context():
        muni = Municipality.query.filter_by(slug=slug).one()
        permit = Permit.query.filter_by(municipality_id=muni.id, status="ativo").order_by(Permit.id).first()
    login_as(f"backoffice.{slug}")
    detail = _without_cracha_card(client.get(f"/bo/permissoes/{permit.id}").get_data(as_text=True))
    assert f"{heading} {permit.number}" in detail
    assert f"<dt>{holder}</dt>" in detail
    assert f'aria-current="page">{nav}</a>' in detail
    assert f'class="badge status-ativo">{active}</span>' in detail
    # Action buttons are verbs.
    for verb in ("Renovar", "Suspender", "Cassar", "Extinguir"):
        assert re.search(rf'<button type="submit"[^>]*>{verb}</button>', detail), verb
    listing = client.get("/bo/permissoes/").get_data(as_text=True)
    assert f'<th scope="col">{holder}</th>' in listing
    if slug == "sapezal":  # nothing in Sapezal's screens calls its alvará a "permissão"
        for url in ("/bo/", "/bo/permissoes/", f"/bo/permissoes/{permit.id}", "/bo/permissoes/nova",
                    f"/bo/permissoes/{permit.id}/editar"):
            page = _without_cracha_card(client.get(url).get_data(as_text=True))
            page = re.sub(r"<[^>]+>", " ", page)  # visible text only (URLs say /permissoes/)
            assert not re.search("permiss", page, re.I), (url, re.findall(r".{40}permiss.{40}", page, re.I))
