// Writing a defence or appeal (issue 37): the step the law gives now (from the server's last
// list, kept on the phone), text and attachments — photos compressed like the fiscal's evidence
// photos, or a PDF up to 5 MB. Everything is saved on the phone as it is typed; "Enviar" hands it
// to the outbox, which sends it when there is signal, never twice.
import { localIsoDate, savedAutos, savedBadge } from '../data/operator.js';
import {
  discardDraft, draftFor, fileOf, keepFile, MAX_ATTACHMENTS, PDF_MAX_BYTES, saveDraft, seal, TEXT_MAX, TEXT_MIN,
} from '../data/operator-outbox.js';
import { compressPhoto } from '../fiscal/photos.js';
import { setBusy } from '../sw-bridge.js';
import { el, formatDate, mount } from './format.js';

export async function render(root, { params, navigate }) {
  if (!(await savedBadge())) {
    navigate('/operador/entrar', { replace: true });
    return undefined;
  }
  const id = params.get('id');
  const auto = ((await savedAutos())?.autos || []).find((a) => a.id === id);
  const step = auto?.process?.filing;
  if (!auto || !step?.open) {
    mount(root, el('h1', {}, 'Defesa ou recurso'),
      el('p', { class: 'notice notice-warn', role: 'alert' }, step?.why_pt || 'Abra o auto em Minhas autuações com conexão para ver o que a lei permite agora.'),
      el('button', { type: 'button', class: 'button button-big', onclick: () => navigate(id ? `/operador/auto?id=${id}` : '/operador/autos') }, 'Voltar'));
    return undefined;
  }
  const entry = await draftFor(id);
  const late = step.due_on && step.due_on < localIsoDate(new Date());
  const message = el('p', { role: 'status', class: 'hint', id: 'filing-status' });
  const error = el('p', { role: 'alert', class: 'field-error', id: 'filing-error' });
  const text = el('textarea', { id: 'filing-text', rows: 10, maxlength: TEXT_MAX, 'aria-describedby': 'filing-text-hint filing-error' }, entry.record.text);
  const list = el('ul', { class: 'list compact', id: 'filing-files' });
  const picker = el('input', { type: 'file', id: 'filing-file', accept: 'image/jpeg,image/png,application/pdf', multiple: true, class: 'visually-hidden-file' });

  const save = async () => {
    entry.record.text = text.value;
    if (entry.record.text.trim() || entry.photos.length) {
      await saveDraft(entry);
      setBusy(true); // an update must not reload over a draft
      message.textContent = 'Rascunho salvo neste celular.';
    }
  };
  const drawFiles = async () => {
    list.replaceChildren();
    for (const sha of entry.photos) {
      const file = await fileOf(sha);
      list.append(el('li', { class: 'list-item' },
        el('span', {}, `${file?.type === 'application/pdf' ? 'PDF' : 'Foto'}: ${file?.name || sha.slice(0, 8)} (${Math.ceil((file?.size || 0) / 1024)} KB)`),
        el('button', { type: 'button', class: 'button button-link', onclick: async () => {
          entry.photos = entry.photos.filter((s) => s !== sha);
          await save();
          drawFiles();
        } }, `Remover ${file?.name || 'anexo'}`)));
    }
  };
  text.addEventListener('input', () => { save().catch((e) => { error.textContent = e.message; }); });
  picker.addEventListener('change', async () => {
    error.textContent = '';
    for (const file of picker.files) {
      if (entry.photos.length >= MAX_ATTACHMENTS) {
        error.textContent = `Até ${MAX_ATTACHMENTS} anexos.`;
        break;
      }
      try {
        entry.photos.push(await keepFile(...await prepared(file)));
      } catch (problem) {
        error.textContent = problem.message;
      }
    }
    picker.value = '';
    entry.photos = [...new Set(entry.photos)];
    await save();
    drawFiles();
  });

  mount(root,
    el('h1', {}, `${step.kind === 'defesa' ? 'Defesa' : 'Recurso'} — auto nº ${auto.number}`),
    el('p', { id: 'filing-step' }, `${step.label_pt}. Dirigido a ${step.instance_pt || 'autoridade indicada pela Prefeitura'}. `
      + (step.due_on ? `Prazo até ${formatDate(step.due_on)}.` : 'O prazo ainda não começou a correr.')),
    late ? el('p', { class: 'notice notice-warn', id: 'filing-late' }, 'O prazo terminou. O pedido ainda é recebido e protocolado, marcado como intempestivo; a autoridade decide se o conhece.') : null,
    el('p', { class: 'notice', id: 'filing-reading' }, 'O protocolo vale pela chegada ao servidor da Prefeitura. Sem sinal, o pedido fica guardado neste celular e é enviado sozinho quando a conexão voltar — uma vez só. Você recebe o número do protocolo aqui e por e-mail, se tiver cadastrado um.'),
    el('label', { for: 'filing-text' }, 'O que você pede e por quê'),
    text,
    el('small', { class: 'hint', id: 'filing-text-hint' }, `De ${TEXT_MIN} a ${TEXT_MAX} caracteres. Salvo no celular enquanto você escreve.`),
    el('h2', {}, 'Anexos'),
    el('p', { class: 'hint' }, `Fotos (comprimidas no celular) ou PDF de até ${PDF_MAX_BYTES / (1024 * 1024)} MB; no máximo ${MAX_ATTACHMENTS}.`),
    el('label', { for: 'filing-file', class: 'button' }, 'Juntar foto ou PDF'),
    picker,
    list,
    error,
    el('button', { type: 'button', class: 'button button-primary button-big', id: 'filing-send', onclick: async (event) => {
      error.textContent = '';
      entry.record.text = text.value;
      event.target.disabled = true;
      try {
        const result = await seal(entry);
        setBusy(false);
        message.textContent = result.sent ? 'Protocolado.' : 'Guardado: será enviado quando houver conexão.';
        navigate(`/operador/auto?id=${id}`);
      } catch (problem) {
        event.target.disabled = false;
        error.textContent = problem.message;
      }
    } }, 'Enviar pedido'),
    message,
    el('button', { type: 'button', class: 'button button-link', onclick: async () => {
      if (!window.confirm('Apagar este rascunho?')) return;
      await discardDraft(entry);
      setBusy(false);
      navigate(`/operador/auto?id=${id}`);
    } }, 'Apagar rascunho'),
  );
  await drawFiles();
  return () => setBusy(false);
}

/** [blob, name] ready to keep: a photo compressed (EXIF dropped), a PDF checked and kept as is. */
async function prepared(file) {
  if (file.type === 'application/pdf') {
    if (file.size > PDF_MAX_BYTES) throw new Error(`${file.name}: PDF maior que ${PDF_MAX_BYTES / (1024 * 1024)} MB.`);
    const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
    if (String.fromCharCode(...head) !== '%PDF-') throw new Error(`${file.name}: não é um PDF.`);
    return [file, file.name];
  }
  if (!['image/jpeg', 'image/png'].includes(file.type)) throw new Error(`${file.name}: envie foto (JPEG/PNG) ou PDF.`);
  try {
    return [await compressPhoto(file), file.name.replace(/\.[^.]+$/, '') + '.jpg'];
  } catch {
    throw new Error(`${file.name}: não foi possível ler a imagem.`);
  }
}
