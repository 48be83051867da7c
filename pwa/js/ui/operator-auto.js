// One auto as its operator follows it (issue 37): where the process stands, what the law lets
// them file now, their filings with receipt and decision (also those still on the phone), the
// notices the Prefeitura sent, and the fine's PIX code. Everything here reads offline from the
// last list saved on the phone; filing and confirming a ciência need the server (or the outbox).
import { fetchAutos, localIsoDate, readNotice, savedAutos, savedBadge } from '../data/operator.js';
import { filings, onFilingsChange, startOperatorSync, syncFilings } from '../data/operator-outbox.js';
import { STATE_LABELS } from '../fiscal/outbox.js';
import { amountOf, processLines } from './operator-autos.js';
import { el, formatDate, formatDateTime, mount } from './format.js';
import { qrSvg } from './qr-code.js';

export async function render(root, { params, navigate }) {
  if (!(await savedBadge())) {
    navigate('/operador/entrar', { replace: true });
    return undefined;
  }
  const id = params.get('id');
  let answer = await fetchAutos().catch(() => null);
  if (!answer?.autos) answer = await savedAutos();
  const auto = (answer?.autos || []).find((a) => a.id === id);
  if (!auto) {
    mount(root, el('h1', {}, 'Auto não encontrado'),
      el('p', { class: 'notice notice-warn' }, 'Este auto não está na lista salva neste celular. Abra Minhas autuações com conexão.'),
      el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/autos') }, 'Minhas autuações'));
    return undefined;
  }
  startOperatorSync();
  const local = (await filings()).filter((e) => e.record.auto_id === id && e.state !== 'rascunho'
    && !(auto.process?.filings || []).some((f) => f.protocol && f.protocol === e.receipt?.protocol));
  const draft = (await filings()).find((e) => e.record.auto_id === id && e.state === 'rascunho');
  const process = auto.process || {};
  mount(root,
    el('h1', {}, `Auto nº ${auto.number}`),
    answer.fresh === false ? el('p', { class: 'notice', role: 'status' }, `Sem conexão: dados salvos em ${formatDateTime(answer.fetched_at)}.`) : null,
    el('section', { class: 'card-section', 'aria-labelledby': 'h-where' },
      el('h2', { id: 'h-where' }, 'Situação'),
      el('p', {}, (auto.infractions || []).map((i) => `${i.label_pt || i.id}: ${amountOf(i)}`).join('; ')),
      el('p', { class: 'stack-tight' }, ...processLines(process))),
    filingSection(auto, process, local, draft, navigate),
    paymentSection(auto.payment),
    noticesSection(auto.notices || [], navigate, id),
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/operador/autos') }, 'Minhas autuações'),
  );
  return onFilingsChange((info) => {
    if (info.done?.sent) navigate(`/operador/auto?id=${id}`, { replace: true });
  });
}

function filingSection(auto, process, local, draft, navigate) {
  const step = process.filing;
  const served = process.filings || [];
  const section = el('section', { class: 'card-section', 'aria-labelledby': 'h-filings' }, el('h2', { id: 'h-filings' }, 'Defesa e recursos'));
  for (const f of served) {
    section.append(el('div', { class: 'receipt', id: `receipt-${f.protocol || f.filed_on}` },
      el('strong', {}, `${f.label_pt} — ${f.protocol ? `protocolo nº ${f.protocol}` : `registrado em ${formatDate(f.filed_on)}`}`),
      el('span', {}, f.received_at ? `Recebido em ${formatDateTime(f.received_at)}${f.source === 'app' ? ', pelo aplicativo' : ''}.` : ''),
      el('span', { class: f.late ? 'late' : 'timely' }, f.timeliness_pt),
      f.text ? el('details', {}, el('summary', {}, 'Texto enviado'), el('p', { class: 'filing-text' }, f.text)) : null,
      f.attachments ? el('span', {}, `${f.attachments} anexo(s).`) : null,
      f.decision
        ? el('p', { class: `decision decision-${f.decision}`, id: `decision-${f.protocol || f.filed_on}` },
          `${f.decision_pt} em ${formatDate(f.decided_on)}: ${f.decision_text}`)
        : el('span', {}, `Aguardando decisão de ${f.instance_pt}.`)));
  }
  for (const entry of local) {
    const receipt = entry.receipt;
    section.append(el('div', { class: 'receipt pending', id: `local-${entry.id}` },
      el('strong', {}, receipt ? `Protocolo nº ${receipt.protocol}` : 'Pedido guardado neste celular'),
      el('span', { role: 'status' }, receipt
        ? `Recebido em ${formatDateTime(receipt.received_at)}. ${receipt.timeliness_pt}`
        : `${STATE_LABELS[entry.state] || entry.state}. ${entry.error || 'Será enviado sozinho quando houver conexão; o protocolo vale pela chegada ao servidor.'}`),
      receipt ? null : el('button', { type: 'button', class: 'button', onclick: () => syncFilings('manual') }, 'Enviar agora')));
  }
  if (!served.length && !local.length) section.append(el('p', { class: 'empty' }, 'Nenhum pedido apresentado.'));
  if (step?.open) {
    const ended = step.due_on && step.due_on < localIsoDate(new Date());
    section.append(
      el('p', { class: 'hint', id: 'file-step-hint' }, `${step.label_pt}${step.instance_pt ? `, perante ${step.instance_pt}` : ''}: `
        + (!step.due_on ? 'o prazo ainda não começou a correr (ou não é fixado em lei).'
          : ended ? `o prazo terminou em ${formatDate(step.due_on)}. Você ainda pode apresentar: o pedido é recebido e registrado como intempestivo.`
            : `prazo até ${formatDate(step.due_on)}.`)),
      el('button', { type: 'button', class: 'button button-primary button-big', id: 'file-step', 'aria-describedby': 'file-step-hint',
        onclick: () => navigate(`/operador/defesa?id=${auto.id}`) },
      draft ? `Continuar ${step.kind} (rascunho)` : `Apresentar ${step.kind}`));
  } else if (step?.why_pt) {
    section.append(el('p', { class: 'hint', id: 'file-closed' }, step.why_pt));
  }
  return section;
}

function paymentSection(payment) {
  const charges = payment?.charges || [];
  if (!charges.length) return null;
  return el('section', { class: 'card-section', 'aria-labelledby': 'h-pay' }, el('h2', { id: 'h-pay' }, 'Pagamento'),
    ...charges.map((c) => el('div', { class: 'pix', id: `pix-${c.txid}` },
      el('p', {}, el('strong', {}, `Multa: ${c.amount_pt}`), c.late_pt ? ` (${c.late_pt})` : ''),
      el('p', { class: 'hint' }, c.due_pt),
      c.dam_number ? el('p', {}, `DAM nº ${c.dam_number}`) : null,
      el('p', {}, `Identificador (txid): ${c.txid}`),
      c.brcode ? pixCode(c) : el('p', { class: `notice ${c.state === 'paga' ? '' : 'notice-warn'}`, id: `pix-why-${c.txid}` }, c.why_pt))));
}

function pixCode(charge) {
  const field = el('textarea', { id: `pix-copy-${charge.txid}`, readonly: true, rows: 4, class: 'pix-copy' }, charge.brcode);
  const copied = el('span', { role: 'status', class: 'hint' });
  return el('div', {},
    el('div', { class: 'pix-qr' }, qrSvg(charge.brcode, { label: `Código PIX da multa, ${charge.amount_pt}`, ecc: 'M' })),
    el('label', { for: `pix-copy-${charge.txid}` }, 'PIX copia e cola'),
    field,
    el('button', { type: 'button', class: 'button', onclick: async () => {
      try {
        await navigator.clipboard.writeText(charge.brcode);
        copied.textContent = 'Código copiado: cole no aplicativo do seu banco.';
      } catch {
        field.select();
        copied.textContent = 'Selecione o texto e copie.';
      }
    } }, 'Copiar código PIX'), copied,
    el('p', { class: 'hint' }, `Recebedor: ${charge.receiver_pt}. ${charge.valid_pt || ''} Confira antes de pagar.`));
}

function noticesSection(notices, navigate, autoId) {
  if (!notices.length) return null;
  return el('section', { class: 'card-section', 'aria-labelledby': 'h-notices' }, el('h2', { id: 'h-notices' }, 'Avisos da Prefeitura'),
    ...notices.map((n) => {
      const summary = el('summary', {}, `${n.kind_pt} — ${n.nature_pt}${n.read_at ? '' : ' (não lido)'}`);
      const box = el('details', { class: 'notice-item', id: `notice-${n.id}` }, summary,
        el('p', { class: 'hint' }, `${formatDateTime(n.created_at)} · ${n.channel === 'nenhum' ? 'registrado aqui (sem envio por e-mail/SMS)' : `${n.channel_pt}: ${n.state_pt}`}`),
        el('pre', { class: 'notice-text' }, n.body));
      if (n.acknowledge) {
        box.append(el('button', { type: 'button', class: 'button button-primary', id: `ack-${n.id}`, onclick: async (event) => {
          event.target.disabled = true;
          try {
            await readNotice(n.id);
            navigate(`/operador/auto?id=${autoId}`, { replace: true });
          } catch (error) {
            event.target.disabled = false;
            box.append(el('p', { class: 'notice notice-error', role: 'alert' }, error.offline
              ? 'Sem conexão: a ciência só vale quando chega ao servidor. Tente de novo com sinal.' : error.message));
          }
        } }, 'Confirmo a ciência desta intimação'));
      } else if (!n.read_at) {
        box.addEventListener('toggle', () => {
          if (box.open) readNotice(n.id).then(() => { summary.textContent = `${n.kind_pt} — ${n.nature_pt}`; }).catch(() => {});
        }, { once: true });
      }
      return box;
    }));
}
