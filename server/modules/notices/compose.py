"""The words of each notice (pt-BR): subject, the e-mail's text, the short text of an SMS or a
WhatsApp message, the link. Minimal personal data: no name, CPF or address — the operator is told
which auto, what happened and where to see it; the rest is behind the link and in the app.

Every text says what it is in law: an AVISO (information only: deadlines run from the service the
municipality records), or — where a recorded municipal act admits electronic service and the
operator adhered to it — the INTIMAÇÃO of the notificação de autuação, whose ciência is the
operator's confirmation in the app (never presumed from a sent e-mail)."""
import json
from dataclasses import dataclass

from ...core.clock import to_local
from ...core.ptbr import brl_cents, date_br

AVISO_PT = ("Natureza: AVISO. Esta mensagem não é intimação: os prazos correm da ciência que a Prefeitura "
            "registrar (assinatura no auto, entrega pessoal, carta com AR ou edital previsto em lei).")
LGPD_PT = ("Dados pessoais: tratados pela Prefeitura para cumprir a lei municipal do moto-táxi (LGPD, art. 7º, "
           "II e III, e art. 23). Avisos de prazo e de pagamento são opcionais: recuse-os no aplicativo.")


def intimacao_pt(act, adhered_on, ref):
    return (f"Natureza: INTIMAÇÃO ELETRÔNICA, admitida por {act}, enviada ao endereço que você declarou em "
            f"{date_br(adhered_on)}{f' ({ref})' if ref else ''}. A ciência é a data em que você a confirmar no "
            "aplicativo (“Confirmo a ciência”); até lá, nenhum prazo corre por esta mensagem.")


@dataclass
class Words:
    subject: str
    text: str
    short: str
    link: str | None = None
    attachment: str | None = None  # what to attach when sending (channels resolve it)


def _app_link(base):
    return f"{base.rstrip('/')}/app/#/operador/autos"


def notificacao(note, municipality, base_url) -> Words:
    content = json.loads(note.content)
    number = content.get("auto", {}).get("number") if isinstance(content.get("auto"), dict) else None
    number = number or note.number.removeprefix("NOT-")
    lines = [f"Prefeitura Municipal de {municipality.name} — {municipality.uf}",
             f"Notificação de autuação {note.number}, referente ao auto de infração nº {number}, "
             f"emitida em {date_br(to_local(note.issued_at).date())}.", ""]
    for step in content.get("instances") or []:
        lines.append(f"- {step.get('label') or 'Defesa'}: {step.get('deadline')}; perante {step.get('authority')}.")
    lines += ["", "A notificação vai anexa (PDF). Confira a autenticidade pelo QR do documento ou pelo endereço:",
              note.payload, "", "Você pode apresentar defesa ou recurso pelo aplicativo (Minhas autuações):",
              _app_link(base_url)]
    return Words(subject=f"Notificação de autuação — auto nº {number} — Prefeitura de {municipality.name}",
                 text="\n".join(lines),
                 short=f"Prefeitura de {municipality.name}: notificação do auto nº {number}. Veja e defenda-se no "
                       f"app: {_app_link(base_url)}",
                 link=_app_link(base_url), attachment=f"notification:{note.id}")


def recibo(case, appeal, label, timeliness, municipality, base_url) -> Words:
    when = to_local(appeal.received_at).strftime("%d/%m/%Y às %H:%M") if appeal.received_at else date_br(appeal.filed_on)
    via = "pelo aplicativo" if appeal.source == "app" else "no protocolo da Prefeitura"
    attached = len(appeal.attachments or [])
    text = "\n".join([
        f"Prefeitura Municipal de {municipality.name} — recibo de protocolo",
        f"Protocolo nº {appeal.protocol}, recebido {via} em {when}.",
        f"Pedido: {label} ({appeal.level}ª instância), auto nº {case.number}, dirigido a {appeal.instance_pt}.",
        timeliness,
        f"Anexos: {attached}." if attached else "Sem anexos.",
        f"Resumo do conteúdo (SHA-256): {appeal.content_hash}" if appeal.content_hash else "",
        "", "O pedido e a decisão aparecem em Minhas autuações:", _app_link(base_url)])
    return Words(subject=f"Recibo de protocolo nº {appeal.protocol} — auto nº {case.number}",
                 text=text.replace("\n\n\n", "\n\n"),
                 short=f"Prefeitura de {municipality.name}: protocolo {appeal.protocol} recebido ({label}, auto "
                       f"{case.number}). {timeliness.split(':')[0]}.", link=_app_link(base_url))


def decisao(case, appeal, label, decision_pt, next_pt, municipality, base_url) -> Words:
    text = "\n".join([
        f"Prefeitura Municipal de {municipality.name}",
        f"Decisão sobre o seu pedido {appeal.protocol or ''} ({label}, auto nº {case.number}):".replace("  ", " "),
        f"{decision_pt} em {date_br(appeal.decided_on)} por {appeal.instance_pt}.",
        f"Fundamentos: {appeal.decision_text}", "", next_pt, "", "Veja no aplicativo:", _app_link(base_url)])
    return Words(subject=f"Decisão: {decision_pt.lower()} — auto nº {case.number}", text=text,
                 short=f"Prefeitura de {municipality.name}: seu pedido sobre o auto {case.number} foi "
                       f"{decision_pt.lower()}. Veja no app: {_app_link(base_url)}", link=_app_link(base_url))


def penalidade(case, label, penalty, slips, municipality, base_url) -> Words:
    lines = [f"Prefeitura Municipal de {municipality.name}",
             f"Penalidade aplicada no auto nº {case.number}: {label}.", f"Motivo: {penalty.state_reason}", ""]
    short = f"Prefeitura de {municipality.name}: penalidade aplicada no auto {case.number}."
    attachment = None
    for made in slips:
        attachment = f"penalty:{case.id}"
        lines += [f"Valor a pagar: {made['amount_pt']}. {made['due_pt']}", f"txid: {made['txid']}"]
        if made.get("dam_number"):
            lines.append(f"DAM nº {made['dam_number']}")
        if made.get("brcode"):
            lines += ["PIX copia e cola (cole no aplicativo do seu banco):", made["brcode"],
                      f"Recebedor: {made['receiver_pt']}. Confira antes de pagar."]
            short += f" Pague {made['amount_pt']} por PIX: veja o código no app."
        else:
            lines.append(f"Pagamento por PIX indisponível: {made['why_pt']}")
    lines += ["", "A notificação de penalidade vai anexa (PDF) quando há multa. Veja também no aplicativo:",
              _app_link(base_url)]
    return Words(subject=f"Penalidade aplicada — auto nº {case.number}", text="\n".join(lines),
                 short=short + f" {_app_link(base_url)}", link=_app_link(base_url), attachment=attachment)


def prazo(case, step, due_on, municipality, base_url) -> Words:
    text = "\n".join([f"Prefeitura Municipal de {municipality.name}",
                      f"O prazo de {step['label_pt']} do auto nº {case.number} termina em {date_br(due_on)} "
                      f"({step['citation_pt']}).",
                      "Se quiser se defender, protocole pelo aplicativo antes do fim do prazo:", _app_link(base_url)])
    return Words(subject=f"Prazo terminando em {date_br(due_on)} — auto nº {case.number}", text=text,
                 short=f"Prefeitura de {municipality.name}: prazo de {step['label_pt']} do auto {case.number} "
                       f"termina em {date_br(due_on)}.", link=_app_link(base_url))


def pagamento(case, charge, municipality, base_url) -> Words:
    text = "\n".join([f"Prefeitura Municipal de {municipality.name}",
                      f"Recebemos o pagamento da multa {charge.txid} (auto nº {case.number}) em "
                      f"{date_br(charge.paid_on)}, no valor de {brl_cents(charge.amount_cents)}.",
                      "A multa consta como paga na sua ficha.", _app_link(base_url)])
    return Words(subject=f"Pagamento recebido — auto nº {case.number}", text=text,
                 short=f"Prefeitura de {municipality.name}: pagamento da multa do auto {case.number} recebido.",
                 link=_app_link(base_url))
