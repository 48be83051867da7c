"""The communications of a period as one A4 PDF (fpdf2, the notificação's page layout): what the
municipality sends to the órgão executivo de trânsito, each communication with its number and its
sending state as recorded ("a comunicar" until a clerk records the sending)."""
from ..autos.notification_pdf import Doc


def period_pdf_bytes(municipality, first, last, rows, created_at) -> bytes:
    doc = Doc()
    pdf = doc.pdf
    pdf.set_title(f"Comunicações ao órgão de trânsito {first:%d/%m/%Y} a {last:%d/%m/%Y}")
    pdf.set_creator("Motofiscal")
    pdf.set_creation_date(created_at)
    doc.text(f"PREFEITURA MUNICIPAL DE {municipality.name.upper()} — {municipality.uf}", 11, True)
    doc.text("Fiscalização do serviço de moto-táxi", 9.5)
    pdf.ln(2)
    doc.text("COMUNICAÇÃO AO ÓRGÃO EXECUTIVO DE TRÂNSITO", 15, True, 8)
    doc.text(f"Período: {first:%d/%m/%Y} a {last:%d/%m/%Y} · {len(rows)} comunicação(ões)", 10)
    doc.text("Infrações do Código de Trânsito Brasileiro constatadas por agentes da fiscalização municipal do "
             "serviço de moto-táxi. O Município não as autua nem as cobra: só um órgão do Sistema Nacional de "
             "Trânsito as aplica (CTB, art. 24). Elas não constam dos autos de infração municipais nem de seus "
             "valores; são comunicadas ao órgão executivo de trânsito para as providências de sua competência.", 8.5)
    if not rows:
        doc.heading("Nenhuma comunicação no período")
    for row in rows:
        doc.heading(f"Comunicação nº {row['number']} — {row['at']:%d/%m/%Y %H:%M}")
        doc.row("Situação", row["state_words"])
        doc.row("Local", row["place"] or (f"Coordenadas GPS {row['gps']}" if row["gps"] else "não informado"),
                None if row["place"] or not row["gps"] else "sem endereço digitado: posição do aparelho")
        doc.row("Placa", row["plate"] or "—")
        if row["permit"]:
            doc.row("Serviço de moto-táxi", row["permit"])
        doc.row("Condutor", row["driver"] or "não identificado no cadastro municipal")
        if row["cnh"]:
            doc.row("CNH", row["cnh"])
        doc.row("Agente", row["agent"] or "—")
        for item in row["items"]:
            doc.row(item["label"], f"Constatado: {item['observed']}" if item["observed"] else "Constatado pelo agente",
                    item["citation"])
    return bytes(pdf.output())
