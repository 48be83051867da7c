"""Column encodings of the field data (GET /api/v1/field/data, docs/sync-api.md "Field data").

`format=columns` (kept for phones still on an older shell): {column: [values]}, null where a row
has no value, ids delta-encoded. `format=packed` (issue 24): the same columns, each encoded once
for what it holds, so gzip gets only the information (sizes per column: bench/field_data.py):

- plain    [v | null, …]
- delta    {"delta": [first, +Δ, …]}: ids and references, null kept (the running value skips it)
- dict     {"dict": [values, most frequent first], "codes": [i | null, …]}: statuses, makes…
- days     {"base": b, "width": w, "days": "…"}: w decimal digits per row (w "-" for null), ISO
           date = 1970-01-01 + b + those days (digits without separators: ~10 % less gzip)
- words    {"words": [words, most frequent first], "codes": [[i, …] | null, …]}: names, split on " "
- fixed    {"width": w, "text": "…"}: ASCII values all w long, none null, one after the other
           (plates, CNH numbers: no quotes and commas between them); plain otherwise
- serial   {"serial": {"delta": …}, "width": dict, "suffix": dict}: values like "00042" or
           "42/2026" = the serial's digits, zero-padded to width, then the suffix (permit numbers
           mostly follow one another); plain when a value does not start with digits

`format=packed2` (issue 24, the field app from this version on): the same plan, three encodings
denser still (10,000 permits: ~11 KB less gzip than packed, bench/field_data.py):

- dict     codes as one character each, {"dict": [...], "text": "0a3-…"}: the code's position in
           ALPHABET ("-" for null), when the table has at most 62 values (else as in packed)
- split    {"shape": dict, "letters": "…", "digits": "…"}: values of capital letters and digits
           only (plates): each row's shape ("LLLDLDD"), then every letter of every row, then
           every digit — gzip codes a letters-only and a digits-only text each at its own entropy
           (~29 bits a plate instead of ~36 mixed); fixed otherwise
- days     {"base": b, "width": w, "b62": "…"}: w ALPHABET digits (base 62) per row, "-" × w
           for null: two characters where decimal took four

Decoder: pwa/js/fiscal/field-merge.js `decodeColumns` (tests/js/fieldapp_field.test.mjs;
tests/test_fieldsync_field_data.py decodes a real answer and compares it with format=rows).
"""
import re
from collections import Counter
from datetime import date

EPOCH = date(1970, 1, 1)

# How each column of each kind travels in format=packed (a column not named here: plain).
PACKED = {
    "permit": {"id": "delta", "number": "serial", "status": "dict", "issued_on": "days", "valid_until": "days",
               "holder_operator_id": "delta", "holder_company": "dict", "vehicle_id": "delta", "ponto_id": "dict"},
    "operator": {"id": "delta", "name": "words", "cnh": "fixed", "cnh_category": "dict", "cnh_first_issue_date": "days",
                 "birth_date": "days", "residence_since": "days", "disqualified_on": "days",
                 "disqualified_basis": "dict", "rehabilitation_course_on": "days"},
    "vehicle": {"id": "delta", "plate": "fixed", "make": "dict", "model": "dict", "year_manufacture": "dict", "engine_cc": "dict",
                "plate_category": "dict", "vistoria_until": "days", "vistoria_on": "days",
                "vistoria_result": "dict", "insurance_until": "days"},
    "ponto": {"id": "delta"},
    "penalty": {"id": "delta", "operator_id": "delta", "permit_id": "delta", "infraction_id": "dict",
                "penalty": "dict", "committed_on": "days", "applied_on": "days"},  # auto_record_id: a code, plain
}


def column_names(rows):
    keys = []
    for row in rows:
        keys.extend(k for k in row if k not in keys)
    return keys


def _deltas(values):
    out, last = [], 0
    for value in values:
        if value is None:
            out.append(None)
        else:
            out.append(value - last)
            last = value
    return out


def to_columns(rows):
    """[{id, a, b}, …] sorted by id → {"id": [first id, +Δ, +Δ…], "a": [...], "b": [...]} with null
    where a row has no value. Columns compress far better than repeated objects."""
    columns = {k: [row.get(k) for row in rows] for k in column_names(rows)}
    columns["id"] = _deltas(columns.get("id", []))
    return columns


def _by_frequency(items):
    return [value for value, _ in sorted(Counter(items).items(), key=lambda kv: (-kv[1], str(kv[0])))]


def _dict(values):
    table = _by_frequency(v for v in values if v is not None)
    index = {value: i for i, value in enumerate(table)}
    return {"dict": table, "codes": [None if v is None else index[v] for v in values]}


def _days(values):
    numbers = [None if v is None else (date.fromisoformat(v) - EPOCH).days for v in values]
    base = min((n for n in numbers if n is not None), default=0)
    width = len(str(max((n - base for n in numbers if n is not None), default=0)))
    return {"base": base, "width": width,
            "days": "".join("-" * width if n is None else str(n - base).zfill(width) for n in numbers)}


def _fixed(values):
    widths = {len(v) if isinstance(v, str) and v.isascii() else None for v in values}
    if len(widths) != 1 or None in widths:
        return values
    return {"width": widths.pop(), "text": "".join(values)}


SERIAL = re.compile(r"([0-9]{1,15})(.*)", re.S)


def _serial(values):
    parts = [SERIAL.fullmatch(v) if isinstance(v, str) else None for v in values]
    if any(m is None for v, m in zip(values, parts) if v is not None):
        return values
    return {"serial": {"delta": _deltas([None if m is None else int(m[1]) for m in parts])},
            "width": _dict([None if m is None else len(m[1]) for m in parts]),
            "suffix": _dict([None if m is None else m[2] for m in parts])}


def _words(values):
    split = [None if v is None else v.split(" ") for v in values]
    table = _by_frequency(w for words in split if words for w in words)
    index = {word: i for i, word in enumerate(table)}
    return {"words": table, "codes": [None if words is None else [index[w] for w in words] for words in split]}


ENCODINGS = {"delta": lambda values: {"delta": _deltas(values)}, "dict": _dict, "days": _days, "words": _words,
             "fixed": _fixed, "serial": _serial, "plain": lambda values: values}

# --- format=packed2 ----------------------------------------------------------------------------

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_PLATE_LIKE = re.compile(r"[A-Z0-9]+")


def _dict_text(values):
    encoded = _dict(values)
    if len(encoded["dict"]) > len(ALPHABET):
        return encoded
    return {"dict": encoded["dict"], "text": "".join("-" if c is None else ALPHABET[c] for c in encoded["codes"])}


def _split(values):
    if not all(v is None or (isinstance(v, str) and _PLATE_LIKE.fullmatch(v)) for v in values):
        return _fixed(values)
    present = [v for v in values if v is not None]
    return {"shape": _dict_text([None if v is None else "".join("L" if c.isalpha() else "D" for c in v)
                                 for v in values]),
            "letters": "".join(c for v in present for c in v if c.isalpha()),
            "digits": "".join(c for v in present for c in v if c.isdigit())}


def _base62(n, width):
    digits = []
    for _ in range(width):
        n, r = divmod(n, len(ALPHABET))
        digits.append(ALPHABET[r])
    return "".join(reversed(digits))


def _days62(values):
    numbers = [None if v is None else (date.fromisoformat(v) - EPOCH).days for v in values]
    base = min((n for n in numbers if n is not None), default=0)
    span, width = max((n - base for n in numbers if n is not None), default=0), 1
    while len(ALPHABET) ** width <= span:
        width += 1
    return {"base": base, "width": width,
            "b62": "".join("-" * width if n is None else _base62(n - base, width) for n in numbers)}


ENCODINGS_2 = {**ENCODINGS, "dict": _dict_text, "fixed": _split, "days": _days62}
VERSIONS = {"packed": ENCODINGS, "packed2": ENCODINGS_2}


def pack_table(kind, rows, fmt="packed"):
    """Rows of one kind (sorted by id) → {column: encoded column} (format=packed or packed2)."""
    plan, encodings = PACKED[kind], VERSIONS[fmt]
    return {name: encodings[plan.get(name, "plain")]([row.get(name) for row in rows]) for name in column_names(rows)}
