// The verdict, large and coloured, with the reason, the operator's photo and name (face check),
// permit, plate (compare with the motorcycle), ponto, validity and the age of the data behind it.
import { formatAge, loadFieldHead, operatorPhoto } from '../fiscal/field-data.js';
import { requireFiscal } from '../fiscal/guard.js';
import { getDraft, saveDraft } from '../fiscal/records.js';
import { afterPaint } from '../router.js';
import { el, formatDate, formatPlate, mount } from './format.js';
import { tariffBlock } from './tariff.js';
import { vistoriaSlot } from './vistoria-badge.js';
import { transitionBox } from './transition-box.js';

const CLASS = { 'VÁLIDO': 'valido', SUSPENSO: 'suspenso', CASSADO: 'cassado', VENCIDO: 'vencido', CADUCADO: 'vencido', 'INVÁLIDO': 'invalido', DESCONHECIDO: 'desconhecido' };

/** "Alvará de autorização", "Permissão": the law's word the draft was started with. */
const permitTitle = (word) => (word ? word.charAt(0).toUpperCase() + word.slice(1) : 'Permissão');

export async function render(root, { params, navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const draft = await getDraft(params.get('id'));
  if (!draft) { navigate('/fiscal', { replace: true }); return undefined; }
  const cleanup = showVerdict(root, draft, navigate);
  // Opened by route (a reload, back): "Ler outro crachá" is the stop's next step, so the scanner's
  // modules load once the verdict is painted, not on the tap (in place, they are already here).
  afterPaint().then(() => import('./fiscal-scan.js')).catch(() => {});
  return cleanup;
}

/** Mount a draft's verdict into root; returns the cleanup. The scanner calls this in place (no
 * route change, no guard or draft re-read) once it has verified a crachá. */
export function showVerdict(root, draft, navigate) {
  const c = draft.credential;
  const s = draft.subject || {};
  // The verdict first; the photo (an IndexedDB read), the tariff and the vistoria a moment later,
  // into their reserved boxes.
  const photo = el('div', { class: 'badge-photo badge-photo-missing', id: 'verdict-photo' }, s.operator_id != null ? '' : 'Sem foto');
  const tariff = el('div', { id: 'tariff-slot' });
  let url = null;
  let gone = false;
  mount(root, 
    el('section', { class: `verdict verdict-${CLASS[c.verdict] || 'desconhecido'}`, id: 'verdict', 'aria-live': 'assertive' },
      el('p', { class: 'verdict-word', id: 'verdict-word' }, c.verdict),
      el('p', { class: 'verdict-reason', id: 'verdict-reason' }, c.reason)),
    // Inabilitação reached by applied penalties (Paranatinga art. 42 § único, Sapezal art. 26):
    // a state of the driver recorded by the back office, whatever today's stop shows.
    s.disqualified_on ? el('p', { class: 'notice notice-error', id: 'verdict-disqualified', role: 'alert' },
      el('strong', {}, `Condutor inabilitado desde ${formatDate(s.disqualified_on)}`), el('br'),
      `${s.disqualified_basis || 'Penalidades aplicadas'}. Não pode conduzir moto-táxi até concluir o curso de reabilitação.`) : null,
    el('div', { class: 'badge-identity' },
      photo,
      // Name and face identify; no CPF or CNH number on the phone (issue 24: the server puts the
      // CNH on the notificação from the registry).
      el('div', {}, el('p', { class: 'badge-name', id: 'verdict-name' }, s.name || 'Nome não consta nos dados'))),
    el('dl', { class: 'badge-facts' },
      el('div', {}, el('dt', { id: 'verdict-permit-word' }, permitTitle(draft.permit_word)), el('dd', { id: 'verdict-permit' }, s.permit_number || draft.permit_number || '—')),
      el('div', {}, el('dt', {}, 'Placa'), el('dd', { id: 'verdict-plate', class: 'plate' }, formatPlate(s.plate))),
      el('div', {}, el('dt', {}, 'Ponto'), el('dd', {}, s.ponto || '—')),
      el('div', {}, el('dt', {}, 'Válido até'), el('dd', {}, formatDate(s.valid_until || c.expires_on)))),
    transitionBox(s.transitions, 'verdict-transitions'),
    vistoriaSlot(s.permit_number || draft.permit_number),
    el('p', { class: 'hint', id: 'verdict-age' }, `Dados do aparelho ${formatAge(draft.data_age_s)}.`),
    tariff,
    el('div', { class: 'stack' },
      el('button', { type: 'button', class: 'button button-primary button-big', id: 'start-checklist', onclick: async () => { await saveDraft({ ...draft, step: 'checklist' }); navigate(`/fiscal/checklist?id=${draft.id}`, { replace: true }); } }, 'Fiscalizar'),
      el('button', { type: 'button', class: 'button button-big', onclick: () => navigate('/fiscal/ler', { replace: true }) }, 'Ler outro crachá')),
  );
  // The slots fill after the verdict's first frame: their renders ran before it otherwise (the
  // field data is in memory, so its promise resolves within the same task).
  // The head, not the rows: at 50,000 permits the rows may still be read when the verdict shows.
  afterPaint().then(loadFieldHead).then((data) => { if (!gone) tariff.replaceChildren(tariffBlock(data.field?.tariff)); }).catch(() => {});
  if (s.operator_id != null) {
    afterPaint().then(() => operatorPhoto(s.operator_id)).catch(() => null).then((blob) => {
      if (gone) return;
      if (!blob) { photo.textContent = 'Sem foto'; return; }
      url = URL.createObjectURL(blob);
      photo.replaceWith(el('img', { class: 'badge-photo', id: 'verdict-photo', src: url, alt: `Foto de ${s.name || 'condutor'}` }));
    });
  }
  return () => { gone = true; if (url) URL.revokeObjectURL(url); };
}

let rehearsed = false;

/**
 * Draw a verdict once, out of sight, and take it away in the same task (no frame ever shows it,
 * no id is doubled at any moment a script or a test could look). The page's first real verdict
 * otherwise met its code and styles cold: 41 ms from verified to visible against 14 for the
 * next (bench/fieldapp_perf.py, 4× CPU); after a rehearsal, 21. Once per page.
 */
export function rehearseVerdict() {
  if (rehearsed) return;
  rehearsed = true;
  const stage = el('div', { class: 'rehearsal', 'aria-hidden': 'true' });
  document.body.append(stage);
  const undo = showVerdict(stage, { id: 'rehearsal', credential: { verdict: 'VÁLIDO', reason: 'Ensaio' }, subject: {}, data_age_s: 0 }, () => {});
  stage.getBoundingClientRect(); // style and layout now, as for the real one
  undo();
  stage.remove();
}
