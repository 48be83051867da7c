// "Solicitar cancelamento" of a signed auto: the auto itself never changes; the fiscal signs a new
// chained record (kind cancel_request, auto_id = the auto) with the reason, sent through the same
// outbox. The back office decides on it.
import { requireFiscal } from '../fiscal/guard.js';
import { currentPosition } from '../fiscal/gps.js';
import { uuid } from '../fiscal/bytes.js';
import { commitRecord, deviceClock, getRecord, listRecords } from '../fiscal/records.js';
import { el, formatPlate, mount } from './format.js';

const MIN_REASON = 10;

/** The cancellation requests this phone already signed for `autoId`. */
export async function cancelRequestsFor(autoId) {
  return (await listRecords()).filter((r) => r.kind === 'cancel_request' && r.summary?.auto_id === autoId);
}

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const auto = await getRecord(params.get('id'));
  if (!auto || auto.kind !== 'auto') { navigate('/fiscal/hoje', { replace: true }); return undefined; }
  const body = JSON.parse(auto.record.body);
  const already = await cancelRequestsFor(auto.id);
  const reason = el('textarea', { id: 'cancel-reason', class: 'input', rows: 5, required: true, maxlength: 2000,
    'aria-describedby': 'cancel-hint' });
  const message = el('p', { class: 'notice notice-error', role: 'alert', id: 'cancel-error', hidden: true });
  const submit = el('button', { type: 'button', class: 'button button-primary button-big', id: 'sign-cancel' }, 'Assinar e enviar solicitação');
  submit.addEventListener('click', async () => {
    const text = reason.value.trim();
    if (text.length < MIN_REASON) {
      message.textContent = `Motivo: descreva o erro (pelo menos ${MIN_REASON} caracteres).`;
      message.hidden = false;
      reason.focus();
      return;
    }
    message.hidden = true;
    submit.disabled = true;
    submit.textContent = 'Assinando…';
    try {
      const position = await currentPosition();
      await commitRecord({
        id: uuid(), kind: 'cancel_request', photos: [],
        summary: { auto_id: auto.id, number: body.number, name: auto.summary?.name || null, plate: body.plate },
        fields: {
          auto_id: auto.id, auto_number: body.number, reason: text, photos: [],
          clock: deviceClock(position.gps_at), gps: position.gps, no_gps_reason: position.gps ? null : position.reason,
        },
      });
      navigate(`/fiscal/auto-emitido?id=${auto.id}`, { replace: true });
    } catch (error) {
      message.textContent = error.message;
      message.hidden = false;
      submit.disabled = false;
      submit.textContent = 'Assinar e enviar solicitação';
    }
  });
  mount(root,
    el('h1', {}, 'Solicitar cancelamento'),
    el('p', { class: 'lead' }, `Auto nº ${body.number} · ${auto.summary?.name || 'Sem identificação'} · ${formatPlate(body.plate) || '—'}`),
    el('p', { class: 'notice', id: 'cancel-immutable' }, 'O auto assinado não é alterado nem apagado. Esta solicitação é um novo registro, assinado por este aparelho, que a prefeitura analisa.'),
    already.length ? el('p', { class: 'notice notice-warn', id: 'cancel-already' }, `Já há ${already.length} solicitação(ões) de cancelamento deste auto neste aparelho.`) : null,
    el('div', { class: 'stack' },
      el('label', { for: 'cancel-reason' }, 'Motivo do cancelamento (obrigatório)'),
      reason,
      el('span', { class: 'hint', id: 'cancel-hint' }, 'Ex.: placa anotada errada; infração registrada por engano.')),
    message, submit,
    el('button', { type: 'button', class: 'button button-big', onclick: () => navigate(`/fiscal/auto-emitido?id=${auto.id}`, { replace: true }) }, 'Voltar'),
  );
  return undefined;
}
