"""The paper copy's ESC/POS bytes (pwa/js/print/escpos.js), read back by an independent decoder
(tests/escpos_decoder.py): the copy's text in code page 850 with its accents, every line within
the paper's columns, the title bold and centred, and the QR image decoded by zxing-cpp to the
copy's address; on 58 and 80 mm paper. The printer's test page too."""
import json
import re
import subprocess
from pathlib import Path

import pytest
import zxingcpp

from escpos_decoder import decode, qr_image

ROOT = Path(__file__).resolve().parent.parent
URL = "https://fiscalizacao.sapezal.mt.gov.br/a/#" + "0123456789" * 48

COPY = {
    "number": "SAP-2026-000123", "issued_at_local": "2026-03-05T09:47", "utc_offset_minutes": -240,
    "place": "Rua Antônio João, 455 — em frente à praça", "plate": "QBA1C23", "permit_number": "MT-0042",
    "defence": {"days": 15, "due": None, "instance": "Secretário Municipal de Obras e Serviços Urbanos"},
    "terms": {"permit": "alvará de autorização", "step": "defesa"},  # the law's words (codec version 2)
    "infractions": [
        {"label": "Condutor sem colete com faixas refletivas e numeração", "citation": "Lei 125/1999, art. 13, § 2º, inciso I",
         "amount_cents": 23155},
        {"label": "Passageiro sem capacete", "citation": "Lei 125/1999, art. 14", "amount_text": "50 UFIR"},
        {"label": "Dificultar a fiscalização", "citation": ""},
    ],
}

SCRIPT = """
import { copyReceipt, testReceipt } from './pwa/js/print/escpos.js';
import { qrModel } from './pwa/js/ui/qr-code.js';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { copy, url, paper } = JSON.parse(input);
const qr = qrModel(['https://fiscalizacao.sapezal.mt.gov.br/a/#', url.split('#')[1]], 'M');
const receipt = copyReceipt(copy, { qr, municipality: { name: 'Sapezal', uf: 'MT' }, paper });
const test = testReceipt({ qr: qrModel('MOTOFISCAL TESTE', 'M'), paper, name: 'MPT-II' });
process.stdout.write(JSON.stringify({ receipt: Buffer.from(receipt).toString('hex'), test: Buffer.from(test).toString('hex') }));
"""


def _bytes(paper):
    out = subprocess.run(["node", "--input-type=module", "-e", SCRIPT], cwd=ROOT, check=True, capture_output=True,
                         text=True, input=json.dumps({"copy": COPY, "url": URL, "paper": paper}))
    answer = json.loads(out.stdout)
    return bytes.fromhex(answer["receipt"]), bytes.fromhex(answer["test"])


def _flat(printout):
    return re.sub(r"\s+", " ", " ".join(line.text for line in printout.lines))


@pytest.mark.parametrize("paper,columns,dots", [(58, 32, 384), (80, 48, 576)])
def test_paper_copy_prints_the_copy_and_its_qr(paper, columns, dots):
    receipt, _ = _bytes(paper)
    printout = decode(receipt)
    assert printout.code_pages == [2]  # CP850, selected before any text
    assert all(len(line.raw) <= columns for line in printout.lines), [line.text for line in printout.lines]
    text = _flat(printout)
    for expected in ["Prefeitura Municipal de Sapezal/MT", "Cópia do autuado - Auto de infração nº SAP-2026-000123",
                     "Lavrado em 05/03/2026 09:47 (relógio do aparelho do fiscal)",
                     "Local: Rua Antônio João, 455 - em frente à praça", "Placa: QBA1C23", "Alvará de autorização nº: MT-0042",
                     "Infrações",
                     "- Condutor sem colete com faixas refletivas e numeração - Lei 125/1999, art. 13, § 2º, inciso I - R$ 231,55",
                     "- Passageiro sem capacete - Lei 125/1999, art. 14 - 50 UFIR (valor em reais a definir)",
                     "- Dificultar a fiscalização - valor a definir",
                     "Prazo de defesa: 15 dias, perante Secretário Municipal de Obras e Serviços Urbanos.",
                     "Cópia assinada pelo aparelho do fiscal."]:
        assert expected in text, expected
    assert "?" not in text  # every character printed as itself or its plain form
    title = [line for line in printout.lines if "Cópia do autuado -" in line.text or "SAP-2026-000123" in line.text]
    assert title and all(line.bold and line.align == 1 for line in title)
    assert not any(line.bold for line in printout.lines if "Placa" in line.text)
    [image] = printout.images
    assert image.width <= dots
    found = zxingcpp.read_barcodes(qr_image(image))
    assert [r.text for r in found] == [URL]
    assert printout.feed_lines >= 3  # the copy clears the tear bar


@pytest.mark.parametrize("paper", [58, 80])
def test_test_page_prints_every_accent(paper):
    _, test = _bytes(paper)
    printout = decode(test)
    text = _flat(printout)
    assert "á à â ã é ê í ó ô õ ú ü ç" in text and "Á À Â Ã É Ê Í Ó Ô Õ Ú Ü Ç" in text and "nº 1º 2ª § 3º" in text
    assert f"papel de {paper} mm" in text
    assert [r.text for r in zxingcpp.read_barcodes(qr_image(printout.images[0]))] == ["MOTOFISCAL TESTE"]
