"""Bank statements read into lines: OFX (1.x SGML or 2.x XML, parsed by ofxtools) or the bank's
CSV export. Pure of the database.

Every line comes out as (bank id, posted date, signed cents, description). The posted date is the
one the bank wrote (the first eight digits of DTPOSTED): ofxtools turns it into a UTC instant,
which at midnight in Brasília would fall on the previous day in Cuiabá.

CSV: a header row, ";" or "," between columns, columns found by name (accents and case ignored):
  data | data lançamento | data movimento                   the posted day (dd/mm/aaaa or aaaa-mm-dd)
  valor | valor (r$) | crédito                             the amount ("1.234,56", "-10,00", "123.45")
  histórico | descrição | memo | detalhamento | identificação   the text that may carry the txid
  id | identificador | documento | nº documento | txid     the bank's id of the line (optional)
Lines without an id are named by a hash of their contents and their rank among identical lines
(the same line of two overlapping exports is the same line; two equal payments stay two)."""
import csv
import hashlib
import io
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from ...core.validation import fold


class StatementError(ValueError):
    """Why the file cannot be read, in pt-BR."""


@dataclass(frozen=True)
class Line:
    bank_id: str
    posted_on: date
    cents: int
    description: str


def parse(data: bytes, filename: str) -> tuple[str, str, list[Line]]:
    """(format, account, lines) of a statement file."""
    head = data[:2048].lstrip(b"\xef\xbb\xbf").lstrip()
    if head.startswith(b"OFXHEADER") or head.startswith(b"<?xml") or b"<OFX>" in data[:4096].upper():
        account, lines = parse_ofx(data)
        return "ofx", account, lines
    if filename.lower().endswith(".ofx"):
        raise StatementError("O arquivo .ofx não tem o cabeçalho OFX.")
    return "csv", "", parse_csv(data)


def _text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise StatementError("Codificação de texto desconhecida (use UTF-8 ou Windows-1252).")


def parse_ofx(data: bytes) -> tuple[str, list[Line]]:
    from ofxtools.Parser import OFXTree  # noqa: PLC0415 (local: ofxtools is loaded only when an OFX file is read)
    tree = OFXTree()
    try:
        tree.parse(io.BytesIO(data))
        ofx = tree.convert()
    except Exception as exc:  # ofxtools raises many kinds (ParseError, ValueError, KeyError…)
        raise StatementError(f"Arquivo OFX inválido: {str(exc)[:200] or type(exc).__name__}.") from None
    raw_dates = _posted_days(_text(data))
    lines, accounts = [], []
    for statement in ofx.statements:
        acct = statement.account
        accounts.append("/".join(str(x) for x in (getattr(acct, "bankid", None), getattr(acct, "branchid", None),
                                                  getattr(acct, "acctid", None)) if x))
        for tx in statement.transactions:
            fitid = str(tx.fitid)
            posted = raw_dates.get(fitid) or tx.dtposted.date()
            cents = int((Decimal(tx.trnamt) * 100).to_integral_value())
            words = " ".join(str(x) for x in (tx.name, tx.memo, getattr(tx, "checknum", None)) if x)
            lines.append(Line(fitid, posted, cents, words[:500]))
    if not accounts:
        raise StatementError("O OFX não tem extrato de conta.")
    return " + ".join(accounts)[:80], lines


def _posted_days(text: str) -> dict:
    """FITID → the day the bank wrote in DTPOSTED, read from each <STMTTRN> block of the file."""
    out = {}
    for block in re.findall(r"<STMTTRN>(.*?)</STMTTRN>", text, flags=re.S | re.I):
        fitid = re.search(r"<FITID>\s*([^<\r\n]+)", block, flags=re.I)
        posted = re.search(r"<DTPOSTED>\s*(\d{8})", block, flags=re.I)
        if fitid and posted:
            stamp = posted.group(1)
            try:
                out[fitid.group(1).strip()] = date(int(stamp[:4]), int(stamp[4:6]), int(stamp[6:8]))
            except ValueError:
                continue
    return out


COLUMNS = {
    "date": ("data", "data lancamento", "data movimento", "data do lancamento", "dt lancamento"),
    "amount": ("valor", "valor (r$)", "valor r$", "credito", "valor do lancamento"),
    "text": ("historico", "descricao", "memo", "detalhamento", "identificacao", "complemento"),
    "id": ("id", "identificador", "documento", "no documento", "n documento", "nº documento", "txid",
           "id da transacao", "codigo"),
}


def _column_map(header):
    names = [fold(h).replace("º", "").replace(".", "").strip() for h in header]
    found = {}
    for key, options in COLUMNS.items():
        for index, name in enumerate(names):
            if name in options and key not in found:
                found[key] = index
    missing = [label for key, label in (("date", "data"), ("amount", "valor")) if key not in found]
    if missing:
        raise StatementError(f"CSV sem a coluna {', '.join(missing)} (veja os nomes aceitos na tela).")
    return found


def _amount(text: str) -> int:
    value = (text or "").strip().replace("R$", "").replace(" ", "")
    negative = value.startswith("-") or value.endswith("-") or (value.startswith("(") and value.endswith(")"))
    value = value.strip("-()+")
    if "," in value:
        value = value.replace(".", "").replace(",", ".")
    try:
        cents = int((Decimal(value) * 100).to_integral_value())
    except InvalidOperation:
        raise StatementError(f"Valor ilegível: “{text}”.") from None
    return -cents if negative else cents


def _day(text: str) -> date:
    text = (text or "").strip()[:10]
    match = re.fullmatch(r"(\d{2})/(\d{2})/(\d{4})", text) or re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if not match:
        raise StatementError(f"Data ilegível: “{text}” (use dd/mm/aaaa).")
    a, b, c = (int(x) for x in match.groups())
    try:
        return date(c, b, a) if len(match.group(1)) == 2 else date(a, b, c)
    except ValueError:
        raise StatementError(f"Data inexistente: “{text}”.") from None


def parse_csv(data: bytes) -> list[Line]:
    text = _text(data)
    sample = text[:4096]
    delimiter = ";" if sample.count(";") >= sample.count(",") else ","
    rows = [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if any(cell.strip() for cell in row)]
    if len(rows) < 2:
        raise StatementError("CSV vazio: uma linha de cabeçalho e ao menos um lançamento.")
    columns = _column_map(rows[0])
    lines, seen = [], {}
    for number, row in enumerate(rows[1:], start=2):
        cell = lambda key: row[columns[key]] if key in columns and columns[key] < len(row) else ""  # noqa: E731
        try:
            posted, cents = _day(cell("date")), _amount(cell("amount"))
        except StatementError as exc:
            raise StatementError(f"Linha {number}: {exc}") from None
        description = " ".join(cell("text").split())[:500]
        ident = cell("id").strip()
        if not ident:  # the n-th identical line of the file is the n-th of an overlapping export too
            key = f"{posted}|{cents}|{description}"
            seen[key] = seen.get(key, 0) + 1
            ident = "h" + hashlib.sha256(f"{key}|{seen[key]}".encode()).hexdigest()[:40]
        lines.append(Line(ident[:120], posted, cents, description or ident))
    return lines
