"""10,000 random mutations of valid payloads: none may verify as VÁLIDO."""
import json
import random
from pathlib import Path

from server.modules.credentials.base45 import ALPHABET, b45decode, b45encode
from server.modules.credentials.codec import PREFIX
from server.modules.credentials.verifier import parse_time, prepare_trust, verify

VECTORS = json.loads((Path(__file__).parent / "vectors/credentials/vectors.json").read_text())
MAIN = VECTORS["groups"][0]
VALID = [c["payload"] for c in MAIN["cases"] if c["expected"]["verdict"] == "VÁLIDO"]
ALL_CHARS = ALPHABET + "abcxyz\n\t#&é"


def mutate(text: str, rng: random.Random) -> str:
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
    if kind == 5:  # flip 1-3 bits in the decoded bytes and re-encode: stays well-formed base45
        raw = bytearray(b45decode(text[len(PREFIX):]))
        for _ in range(rng.randint(1, 3)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return PREFIX + b45encode(bytes(raw))
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
