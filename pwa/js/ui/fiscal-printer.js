// "Impressora Bluetooth": pair the portable thermal printer that prints the operator's copy,
// choose its paper width (58 or 80 mm), print a test page, forget it. Reached from the issued
// auto ("Impressora e papel"); printing itself is one tap there (ui/copy-print.js).
import { requireFiscal } from '../fiscal/guard.js';
import { el, mount } from './format.js';
import { qrModel } from './qr-code.js';

export async function render(root, { navigate }) {
  if (!(await requireFiscal(navigate))) return undefined;
  const back = el('button', { type: 'button', class: 'button button-big', id: 'printer-back', onclick: () => history.back() }, 'Voltar');
  if (!navigator.bluetooth?.requestDevice) {
    mount(root,
      el('h1', {}, 'Impressora Bluetooth'),
      el('p', { class: 'notice notice-warn', id: 'printer-unavailable' }, 'Este navegador não usa impressoras Bluetooth (no iPhone e no iPad nenhum navegador usa). Entregue a cópia do autuado pelo código QR ou por "Compartilhar cópia (PDF)".'),
      back);
    return undefined;
  }
  const printer = await import('../print/printer.js');
  const saved = await printer.savedPrinter();
  const status = el('p', { class: 'hint', id: 'printer-status', role: 'status' });
  const current = el('p', { class: 'lead', id: 'printer-current' });
  const showCurrent = (p) => {
    current.textContent = p?.id ? `Impressora pareada: ${p.name || 'sem nome'}.` : 'Nenhuma impressora pareada.';
  };
  showCurrent(saved);
  const paper = saved?.paper === 80 ? 80 : 58;
  let saving = Promise.resolve(); // the width just chosen, before anything prints
  const choice = (mm) => el('label', { class: 'choice' },
    el('input', { type: 'radio', name: 'paper', value: String(mm), checked: paper === mm, onchange: () => { saving = printer.setPaper(mm); } }),
    `${mm} mm`);
  const act = (label, id, run, primary = false) => {
    const button = el('button', { type: 'button', class: `button button-big${primary ? ' button-primary' : ''}`, id }, label);
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await saving;
        status.textContent = await run();
      } catch (error) {
        status.textContent = error?.message || String(error);
      } finally {
        button.disabled = false;
        showCurrent(await printer.savedPrinter());
      }
    });
    return button;
  };
  mount(root,
    el('h1', {}, 'Impressora Bluetooth'),
    el('p', { class: 'hint' }, 'Impressora térmica portátil (ESC/POS, Bluetooth LE): imprime a cópia do autuado na hora, sem internet.'),
    current,
    el('fieldset', { class: 'item', id: 'printer-paper' },
      el('legend', { class: 'question' }, 'Largura do papel'),
      el('div', { class: 'choices', role: 'radiogroup', 'aria-label': 'Largura do papel', 'aria-describedby': 'printer-paper-hint' },
        choice(58), choice(80)),
      el('p', { class: 'hint', id: 'printer-paper-hint' }, '58 mm: 32 letras por linha; 80 mm: 48.')),
    act(saved?.id ? 'Parear outra impressora' : 'Parear impressora', 'printer-pair', async () => {
      status.textContent = 'Procurando impressoras…';
      const { device } = await printer.connectPrinter({ fresh: true });
      return device.name ? `Impressora ${device.name} pareada.` : 'Impressora pareada.';
    }, true),
    act('Imprimir teste', 'printer-test', async () => {
      status.textContent = 'Imprimindo o teste…';
      const { testReceipt } = await import('../print/escpos.js');
      const p = await printer.savedPrinter();
      const { name } = await printer.printBytes(testReceipt({ qr: qrModel('MOTOFISCAL TESTE', 'M'), paper: p?.paper || 58, name: p?.name }));
      return name ? `Teste impresso em ${name}.` : 'Teste impresso.';
    }),
    act('Esquecer impressora', 'printer-forget', async () => {
      await printer.forgetPrinter();
      return 'Impressora esquecida.';
    }),
    status,
    back,
  );
  return undefined;
}
