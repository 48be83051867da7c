"""The words each municipality's law uses for its permit, its document and its holder.

One vocabulary per municipality, taken from its law, used the same way on back-office screens,
crachás and the public crachá page (call `vocabulary(municipality)`; never spell "permissão" in
a template). The law is found through the municipality's rule packs (`Municipality.regimes`):
- Sapezal, Lei 125/1999 art. 2º II and art. 3º: "alvará de autorização", held by the
  "condutor autorizado" (art. 9º II).
- Paranatinga, Lei 311/2007 art. 1º: "termo de permissão e alvará de licença"; the holder is the
  "permissionário" (art. 2º II); the alvará is renewed yearly (art. 13 § 1º).
- Nortelândia, Lei 030/1998 art. 6º: "autorizações … por meio de Alvará", held by a company, the
  "autorizada" (art. 7º, art. 9º).
A municipality with none of these packs gets the neutral "permissão" and "titular".
"""
from dataclasses import dataclass

from .models import PERMIT_STATUSES

# Status words, masculine and feminine, to agree with the permit's noun ("alvará ativo",
# "permissão ativa").
_STATUS_FORMS = {
    "ativo": ("Ativo", "Ativa"), "vencido": ("Vencido", "Vencida"), "suspenso": ("Suspenso", "Suspensa"),
    "cassado": ("Cassado", "Cassada"), "caducado": ("Caducado", "Caducada"), "extinto": ("Extinto", "Extinta"),
}

# What the back-office buttons say: verbs, the same in every municipality.
ACTION_VERBS = {
    "issue": "Emitir", "renew": "Renovar", "suspend": "Suspender", "reinstate": "Encerrar suspensão",
    "cassar": "Cassar", "extinguish": "Extinguir", "expire": "Vencer", "lapse": "Declarar caducidade",
}


@dataclass(frozen=True)
class Vocabulary:
    permit: str  # the grant, lower case, singular: "alvará de autorização", "permissão"
    permits: str  # plural
    short_plural: str  # navigation entry: "Alvarás", "Permissões", "Autorizações"
    feminine: bool  # grammatical gender of `permit` (articles, adjectives, statuses)
    document: str  # the paper that proves it: "alvará de autorização", "alvará de licença"
    holder: str  # who holds it: "condutor autorizado", "permissionário", "empresa autorizada"
    basis: str  # where these words come from
    kinds: tuple = ("alvara", "termo_permissao")  # registry.models.PERMIT_KINDS the law uses

    @property
    def permit_title(self):
        return self.permit[:1].upper() + self.permit[1:]

    @property
    def permits_title(self):
        return self.permits[:1].upper() + self.permits[1:]

    @property
    def holder_title(self):
        return self.holder[:1].upper() + self.holder[1:]

    def agree(self, masculine, feminine):
        """The word that agrees with the permit's noun: vocab.agree("Novo", "Nova")."""
        return feminine if self.feminine else masculine

    @property
    def new_permit(self):
        return f"{self.agree('Novo', 'Nova')} {self.permit}"

    @property
    def none_found(self):
        return f"{self.agree('Nenhum', 'Nenhuma')} {self.permit}"

    @property
    def this_permit(self):
        return f"{self.agree('deste', 'desta')} {self.permit}"

    def numbered(self, number):
        """Heading and crachá line: "Alvará de autorização nº 012/2026"."""
        return f"{self.permit_title} nº {number}"

    def status(self, code):
        forms = _STATUS_FORMS.get(code)
        return (forms[1] if self.feminine else forms[0]) if forms else code

    @property
    def statuses(self):
        return {code: self.status(code) for code in PERMIT_STATUSES}

    def verb(self, action):
        return ACTION_VERBS.get(action, action)


BY_PACK = {
    "sapezal-lei-125-1999": Vocabulary(
        permit="alvará de autorização", permits="alvarás de autorização", short_plural="Alvarás",
        feminine=False, document="alvará de autorização", holder="condutor autorizado",
        basis="Lei 125/1999 (Sapezal), art. 2º, II, art. 3º e art. 9º, II", kinds=("alvara",)),
    "paranatinga-lei-311-2007": Vocabulary(
        permit="permissão", permits="permissões", short_plural="Permissões", feminine=True,
        document="alvará de licença", holder="permissionário",
        basis="Lei 311/2007 (Paranatinga), art. 1º, art. 2º, II e art. 13", kinds=("termo_permissao",)),
    "nortelandia-lei-030-1998": Vocabulary(
        permit="autorização", permits="autorizações", short_plural="Autorizações", feminine=True,
        document="alvará", holder="empresa autorizada",
        basis="Lei 030/1998 (Nortelândia), art. 6º, art. 7º e art. 9º", kinds=("alvara",)),
}

DEFAULT = Vocabulary(permit="permissão", permits="permissões", short_plural="Permissões", feminine=True,
                     document="alvará", holder="titular", basis="termos gerais (município sem lei codificada)")


def vocabulary(municipality):
    """The vocabulary of a Municipality (or None → neutral words), chosen by its law's pack."""
    for pack_id in (getattr(municipality, "regimes", None) or []):
        if pack_id in BY_PACK:
            return BY_PACK[pack_id]
    return DEFAULT
