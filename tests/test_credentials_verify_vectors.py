"""The Python verifier against the shared vectors (the JS one reads the same file)."""
import json
from pathlib import Path

import pytest

from server.modules.credentials.verifier import parse_time, prepare_trust, verify

VECTORS = json.loads((Path(__file__).parent / "vectors/credentials/vectors.json").read_text())
CASES = [(g, c) for g in VECTORS["groups"] for c in g["cases"]]


@pytest.mark.parametrize("group,case", CASES, ids=[f"{g['name']}:{c['name']}" for g, c in CASES])
def test_vector(group, case):
    result = verify(case["payload"], prepare_trust(group["trust"]), parse_time(group["now"]))
    assert (result["verdict"], result["reason_code"]) == (
        case["expected"]["verdict"], case["expected"]["reason_code"])
    assert result["data_age_seconds"] == int(
        (parse_time(group["now"]) - parse_time(group["trust"]["generated_at"])).total_seconds())


def test_vectors_cover_every_verdict():
    verdicts = {c["expected"]["verdict"] for _, c in CASES}
    assert verdicts == {"VÁLIDO", "INVÁLIDO", "SUSPENSO", "CASSADO", "VENCIDO", "CADUCADO", "DESCONHECIDO"}


def test_valid_verdict_carries_signed_fields():
    group = VECTORS["groups"][0]
    result = verify(group["cases"][0]["payload"], prepare_trust(group["trust"]), parse_time(group["now"]))
    assert result["credential"] == {"version": 1, "kid": 2, "ibge_code": 5106307, "serial": 1,
                                    "expires_on": "2026-12-31", "permit_number": "PNT-2026/0001"}
    assert result["reason_pt"] == "Credencial autêntica, permissão ativa."


def test_js_verifier_uses_the_same_reason_table():
    """Both verifiers show fiscais the same verdict and text for each reason code."""
    import re

    from server.modules.credentials.verifier import REASONS

    js = (Path(__file__).parent.parent / "pwa/js/credentials/verify.js").read_text()
    names = dict(re.findall(r"export const (\w+) = '([^']+)';", js))
    table = {code: (names[const], text)
             for code, const, text in re.findall(r"^  (\w+): \[(\w+), '([^']+)'\],$", js, re.M)}
    assert table == REASONS


def test_reasons_name_the_permit_as_the_law_does():
    """The trust data's municipality carries the law's noun (registry.vocabulary): Sapezal's
    alvará de autorização is "caducado", masculine; without the noun the words are neutral."""
    from server.modules.registry.vocabulary import BY_PACK

    group = next(g for g in VECTORS["groups"] if any(c["name"] == "permit_caducado" for c in g["cases"]))
    case = next(c for c in group["cases"] if c["name"] == "permit_caducado")
    words = BY_PACK["sapezal-lei-125-1999"]
    trust = dict(group["trust"], municipality=dict(group["trust"]["municipality"],
                                                   permit_noun=words.permit, permit_feminine=words.feminine))
    result = verify(case["payload"], prepare_trust(trust), parse_time(group["now"]))
    assert result["verdict"] == "CADUCADO"
    assert result["reason_pt"] == "Alvará de autorização caducado (não renovado no prazo)."
    neutral = verify(case["payload"], prepare_trust(group["trust"]), parse_time(group["now"]))
    assert neutral["reason_pt"] == "Permissão caducada (não renovada no prazo)."
    assert "prefixo" not in verify("HELLO WORLD", prepare_trust(group["trust"]), parse_time(group["now"]))["reason_pt"]
