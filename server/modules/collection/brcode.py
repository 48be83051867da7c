"""The PIX BR Code of a fine: a static EMV® QRCPS-MPM payload as the Banco Central's "Manual do
BR Code" (and the "Manual de Padrões para Iniciação do Pix", static QR section) set it.

Each field is ID (2 digits) + length (2 digits) + value; the payload ends with the CRC of
everything before it, "6304" included:

    00 Payload Format Indicator      "01"
    26 Merchant Account Information  00 GUI "br.gov.bcb.pix", 01 the PIX key, 02 free text
    52 Merchant Category Code        "0000"
    53 Transaction Currency          "986" (BRL, ISO 4217)
    54 Transaction Amount            "123.45" (the fine; up to 13 characters)
    58 Country Code                  "BR"
    59 Merchant Name                 up to 25 characters (the receiver, as set by the municipality)
    60 Merchant City                 up to 15 characters
    62 Additional Data Field         05 Reference Label = the txid (static QR: up to 25 of A–Z a–z 0–9)
    63 CRC                           CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), 4 upper-case hex

No Point of Initiation Method (ID 01): optional, and a fine paid in two goes must stay payable.
Names and cities are written in plain ASCII upper case (the manuals' character set; an accent
would make the byte length differ from the character count on some readers).
Pure: no Flask, no database. Tests check it with an independent decoder (tests/test_collection_brcode.py).
"""
import re
import unicodedata
import uuid

from ...core.validation import cnpj_is_valid, cpf_is_valid, only_digits

GUI = "br.gov.bcb.pix"
MAX_NAME, MAX_CITY, MAX_TXID, MAX_MAI = 25, 15, 25, 99
TXID_RE = re.compile(r"^[A-Za-z0-9]{1,25}$")
KEY_TYPES = {"cnpj": "CNPJ", "cpf": "CPF", "email": "E-mail", "telefone": "Telefone celular",
             "aleatoria": "Chave aleatória (EVP)"}


class BRCodeError(ValueError):
    """A value the BR Code cannot carry; `field` names the setting or value at fault."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def crc16(text: str) -> str:
    """CRC-16/CCITT-FALSE of the payload's bytes, as the four upper-case hex digits of field 63."""
    crc = 0xFFFF
    for byte in text.encode("ascii"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def _field(ident: str, value: str) -> str:
    if not 0 < len(value) <= 99:
        raise BRCodeError(ident, f"Campo {ident} do BR Code com {len(value)} caracteres (1 a 99).")
    return f"{ident}{len(value):02d}{value}"


def plain(text: str, limit: int) -> str:
    """Upper-case ASCII without accents, other characters dropped, cut to `limit`."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    ascii_text = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).encode("ascii", "ignore").decode()
    kept = re.sub(r"[^A-Za-z0-9 .,/&-]", "", ascii_text).upper()
    return " ".join(kept.split())[:limit].strip()


def normalize_key(kind: str, key: str) -> str:
    """The key as the DICT stores it: CPF/CNPJ digits, e-mail in lower case, phone +55DDDNNNNNNNNN,
    random key (EVP) as a lower-case UUID. Raises BRCodeError naming "pix_key"."""
    key = (key or "").strip()
    if kind == "cnpj":
        digits = only_digits(key)
        if not cnpj_is_valid(digits):
            raise BRCodeError("pix_key", "CNPJ inválido (confira os dígitos verificadores).")
        return digits
    if kind == "cpf":
        digits = only_digits(key)
        if not cpf_is_valid(digits):
            raise BRCodeError("pix_key", "CPF inválido (confira os dígitos verificadores).")
        return digits
    if kind == "email":
        key = key.lower()
        if not re.fullmatch(r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}", key) or len(key) > 77:
            raise BRCodeError("pix_key", "E-mail inválido para chave PIX.")
        return key
    if kind == "telefone":
        digits = only_digits(key)
        if digits.startswith("55") and len(digits) == 13:
            digits = digits[2:]
        if len(digits) != 11:
            raise BRCodeError("pix_key", "Telefone com DDD e nove dígitos (ex.: 65 99999-0000).")
        return "+55" + digits
    if kind == "aleatoria":
        try:
            return str(uuid.UUID(key))
        except ValueError:
            raise BRCodeError("pix_key", "Chave aleatória: o UUID que o banco informou (36 caracteres).") from None
    raise BRCodeError("pix_key_type", "Escolha o tipo da chave PIX.")


def amount_text(cents: int) -> str:
    if not isinstance(cents, int) or cents <= 0 or cents > 99_999_999_999:
        raise BRCodeError("amount", "Valor da multa fora do que o BR Code carrega.")
    return f"{cents // 100}.{cents % 100:02d}"


def build(*, key: str, name: str, city: str, cents: int, txid: str, info: str | None = None) -> str:
    """The copia-e-cola text (also the QR's content). `key` already normalized."""
    if not TXID_RE.match(txid or ""):
        raise BRCodeError("txid", "txid: até 25 letras ou algarismos, sem espaços.")
    name_text, city_text = plain(name, 999), plain(city, 999)
    if len(name_text) > MAX_NAME or len(city_text) > MAX_CITY:
        raise BRCodeError("pix_receiver_name" if len(name_text) > MAX_NAME else "pix_city",
                          f"Nome até {MAX_NAME} e cidade até {MAX_CITY} caracteres no BR Code.")
    if not name_text:
        raise BRCodeError("pix_receiver_name", "Informe o nome do recebedor (como cadastrado no banco).")
    if not city_text:
        raise BRCodeError("pix_city", "Informe a cidade do recebedor.")
    account = _field("00", GUI) + _field("01", key)
    extra = plain(info or "", MAX_MAI - len(account) - 4)
    if extra:
        account += _field("02", extra)
    payload = (_field("00", "01") + _field("26", account) + _field("52", "0000") + _field("53", "986")
               + _field("54", amount_text(cents)) + _field("58", "BR") + _field("59", name_text)
               + _field("60", city_text) + _field("62", _field("05", txid)) + "6304")
    return payload + crc16(payload)


def parse_fields(payload: str) -> dict:
    """ID → value of the top level (nested templates left as text); used by the screens to show what
    a code carries. Raises BRCodeError on a malformed payload."""
    out, i = {}, 0
    while i < len(payload):
        if i + 4 > len(payload):
            raise BRCodeError("payload", "BR Code truncado.")
        ident, size = payload[i:i + 2], payload[i + 2:i + 4]
        if not size.isdigit():
            raise BRCodeError("payload", "BR Code malformado.")
        out[ident] = payload[i + 4:i + 4 + int(size)]
        i += 4 + int(size)
    return out


def txid_for(ibge_code, penalty_id: int) -> str:
    """One txid per fine, readable in a statement: "MF" + IBGE code + "M" + the penalty's id (≤ 25)."""
    return f"MF{int(ibge_code)}M{int(penalty_id):08d}"
