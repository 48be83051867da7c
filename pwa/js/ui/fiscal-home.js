// Fiscal home: start an inspection (scan, search, no crachá), data age, pending sends.
// Its static imports are the start-up's module graph (index.html modulepreloads exactly that,
// tests/js/fieldapp_preload.test.mjs): what fills in after the first paint (field data, drafts,
// the outbox count) is imported then.
import { requireFiscal } from '../fiscal/guard.js';
import { afterPaint } from '../router.js';
import { el, mount } from './format.js';

export async function render(root, { navigate }) {
  const s = await requireFiscal(navigate);
  if (!s) return undefined;
  // Shell first: the buttons paint at once; the data age, the auto-number warning and the
  // drafts (IndexedDB reads, the registry extract the largest) fill their slots right after.
  const badge = el('span', { class: 'count-badge', id: 'pending-badge', hidden: true });
  const go = (path) => () => navigate(path);
  // The camera and the decoder's worker start at the tap, while the scanner screen loads and
  // draws (getUserMedia and the .wasm compile took ~400 ms each at 4× CPU, bench/fieldapp_perf.py).
  // On a phone both start at the press (pointerdown), before the finger lifts; a keyboard's
  // Enter or Space has only the click.
  const startScanner = (open) => {
    import('../fiscal/qr-decoder.js').then((d) => d.qrDecoder()).catch(() => {});
    import('../fiscal/camera.js').then(open).catch(() => {}); // the screen reports a failure
  };
  const press = (event) => { if (event.isPrimary && event.button === 0) startScanner((c) => c.openCameraAhead()); };
  const scan = () => {
    startScanner((c) => c.openCamera());
    navigate('/fiscal/ler');
  };
  const age = el('p', { class: 'hint', id: 'data-age' }, 'Dados: verificando…');
  const warnings = el('div', { id: 'home-warnings' });
  const drafts = el('div', { id: 'home-drafts' });
  mount(root,
    el('h1', {}, `Olá, ${s.user.name.split(' ')[0]}`),
    s.expired ? el('p', { class: 'notice notice-warn', id: 'session-expired' }, 'Sessão expirada: nada é enviado até você ', el('a', { href: '#/fiscal/entrar?expirado=1' }, 'entrar de novo'), '.') : null,
    age, warnings, drafts,
    el('div', { class: 'stack' },
      el('button', { type: 'button', class: 'button button-primary button-huge', id: 'go-scan', onpointerdown: press, onclick: scan }, 'Ler crachá'),
      el('button', { type: 'button', class: 'button button-big', onclick: go('/fiscal/buscar') }, 'Buscar placa, alvará ou nome'),
      el('button', { type: 'button', class: 'button button-big', onclick: go('/fiscal/sem-cracha') }, 'Pessoa sem crachá'),
      el('button', { type: 'button', class: 'button button-big', id: 'go-vistoria', onclick: go('/fiscal/vistoria') }, 'Vistoria da moto'),
      el('button', { type: 'button', class: 'button button-big', id: 'go-today', onclick: go('/fiscal/hoje') }, 'Hoje e envios ', badge)),
  );
  let gone = false;
  let stop = null;
  const fill = async () => {
    await afterPaint();
    const [{ dataAgeSeconds, formatAge, loadFieldHead, numbers, NUMBERS_WARN_AT }, { listDrafts }, { onSyncChange, outboxCounts }, { listVistoriaDrafts }] = await Promise.all([
      import('../fiscal/field-data.js'), import('../fiscal/records.js'), import('../fiscal/sync.js'), import('../fiscal/vistoria-drafts.js')]);
    if (gone) return;
    const showCounts = async () => {
      const c = await outboxCounts();
      badge.hidden = c.pending === 0;
      badge.textContent = String(c.pending);
      badge.setAttribute('aria-label', `${c.pending} a enviar`);
    };
    showCounts();
    stop = onSyncChange(showCounts);
    const data = await loadFieldHead(); // not the registry's rows: read below, when idle
    if (gone) return;
    if (!data.trust && !data.rules) { navigate('/fiscal/dados?primeira=1', { replace: true }); return; }
    const seconds = dataAgeSeconds(data);
    age.className = seconds !== null && seconds > 86400 ? 'notice notice-warn' : 'hint';
    age.replaceChildren(`Dados ${formatAge(seconds)}. `, el('a', { href: '#/fiscal/dados' }, 'Atualizar dados'));
    const [block, open, vistorias] = await Promise.all([numbers(), listDrafts(), listVistoriaDrafts()]);
    if (gone) return;
    // A synthetic example's law (a fictional municipality, `synthetic` in its pack): never real autos.
    const example = (data.rules?.packs || []).some((p) => p.synthetic);
    warnings.replaceChildren(...(example ? [el('p', { class: 'notice notice-warn', id: 'example-municipality' },
      'Exemplo fictício: município e lei sintéticos, para demonstração. Os autos daqui não têm valor legal.')] : []),
    ...(block.available.length < NUMBERS_WARN_AT
      ? [el('p', { class: 'notice notice-warn', id: 'numbers-low' }, block.available.length
        ? `Restam ${block.available.length} números de auto. Atualize os dados com internet.`
        : 'Sem números de auto neste aparelho: atualize os dados com internet antes de autuar.')]
      : []));
    drafts.replaceChildren(...(open.length
      ? [el('div', { class: 'stack' }, open.map((d) => el('button', {
        type: 'button', class: 'button button-big button-warn', onclick: go(`/fiscal/checklist?id=${d.id}`),
      }, `Continuar fiscalização: ${d.subject?.name || d.plate || 'sem identificação'}`)))]
      : []), ...vistorias.map((d) => el('button', {
      type: 'button', class: 'button button-big button-warn', onclick: go(`/fiscal/vistoria/checklist?id=${d.id}`),
    }, `Continuar vistoria: ${d.plate || 'moto'}`)));
  };
  // Right after the first paint, the scanner's decoder: its worker compiles and warms zxing up
  // on its own thread while this thread reads the field data ("Ler crachá" is the next tap).
  afterPaint().then(() => { if (!gone) import('../fiscal/qr-decoder.js').then((d) => d.qrDecoder()); }).catch(() => {});
  fill().catch((error) => console.error('home data', error))
    // Then, when the phone is idle, the scanner's modules and the registry's rows (read page by
    // page, so a tap meanwhile is not kept waiting), which search and checklist read.
    .finally(() => {
      if (gone) return;
      whenIdle(() => {
        // The scanner's verification prepared (trusted keys, the signature check warmed up) and
        // its verdict rehearsed here, not while the camera starts: on the scanner that work ran
        // when the camera's stream came, and the stream waited for it (bench/fieldapp_perf.py).
        import('./fiscal-scan.js').then((s) => { if (!gone) s.rehearseScanner(); }).catch(() => {});
        import('../fiscal/field-data.js').then((f) => f.loadField()).catch(() => {});
      });
    });
  return () => { gone = true; if (typeof stop === 'function') stop(); };
}

function whenIdle(work) {
  if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 2000 });
  else setTimeout(work, 500);
}
