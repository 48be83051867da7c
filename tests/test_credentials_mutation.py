"""10,000 random mutations of valid payloads, in both envelopes: none may verify as VÁLIDO.

In the URL form only the code after "/V/" is mutated: scheme and host are not signed (any host
verifies the same signed body, see docs/credentials.md), so changing them is not a forgery."""
import json
import random
from pathlib import Path

from server.modules.credentials.base32 import ALPHABET as B32, b32decode, b32encode
from server.modules.credentials.base45 import ALPHABET, b45decode, b45encode
from server.modules.credentials.codec import PREFIX, URL_PATH
from server.modules.credentials.verifier import parse_time, prepare_trust, verify

VECTORS = json.loads((Path(__file__).parent / "vectors/credentials/vectors.json").read_text())
MAIN = VECTORS["groups"][0]
VALID = [c["payload"] for g in VECTORS["groups"][:2] for c in g["cases"]
         if c["expected"]["verdict"] == "VÁLIDO"]
ALL_CHARS = ALPHABET + B32 + "abcxyz\n\t#&é="


def mutate(text: str, rng: random.Random) -> str:
    if text.startswith(PREFIX):
        return _mutate(text, rng, PREFIX, b45decode, b45encode)
    cut = text.index(URL_PATH) + len(URL_PATH)
    return text[:cut] + _mutate(text[cut:], rng, "", b32decode, b32encode)


def _mutate(text: str, rng: random.Random, prefix, decode, encode) -> str:
    kind = rng.randrange(7)
    i = rng.randrange(len(text))
    if kind == 0:  # flip one bit of one character
        return text[:i] + chr(ord(text[i]) ^ (1 << rng.randrange(7))) + text[i + 1:]
    if kind == 1:  # replace a character
        return text[:i] + rng.choice(ALL_CHARS) + text[i + 1:]
    if kind == 2:  # insert a character
        return text[:i] + rng.choice(ALL_CHARS) + text[i:]
    if kind == 3:  # delete a character
        return text[:i] + text[i + 1:]
    if kind == 4:  # truncate
        return text[:i]
    if kind == 5:  # flip 1-3 bits in the decoded bytes and re-encode: stays well-formed
        raw = bytearray(decode(text[len(prefix):]))
        for _ in range(rng.randint(1, 3)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return prefix + encode(bytes(raw))
    j = rng.randrange(len(text))  # swap two characters
    chars = list(text)
    chars[i], chars[j] = chars[j], chars[i]
    return "".join(chars)


def test_ten_thousand_mutants_never_valid():
    trust, now = prepare_trust(MAIN["trust"]), parse_time(MAIN["now"])
    for payload in VALID:
        assert verify(payload, trust, now)["verdict"] == "VÁLIDO"
    rng = random.Random(20261129)
    tested, verdicts = 0, {}
    while tested < 10_000:
        original = rng.choice(VALID)
        mutant = mutate(original, rng)
        if mutant == original:
            continue  # e.g. swapping two equal characters: not a mutation
        result = verify(mutant, trust, now)
        assert result["verdict"] != "VÁLIDO", (original, mutant)
        verdicts[result["reason_code"]] = verdicts.get(result["reason_code"], 0) + 1
        tested += 1
    # The mutants must exercise the signature check, not only the cheap parsers.
    assert verdicts.get("bad_signature", 0) > 1000, verdicts
