// The tariff table in force, as the field data carries it (server/modules/tariffs:
// tariff_summary → field data "tariff"; null when the municipality recorded none). The law does
// not set the amounts (Paranatinga Lei 311/2007 art. 35, Sapezal Lei 125/1999 art. 19: a decree
// does), so the phone shows only what the clerk recorded, with its act — never a guessed fare.
// Pure data → text here (tests/js/fieldapp_tariff.test.mjs); the DOM in ui/tariff.js.

const isoToBr = (iso) => (iso ? iso.split('-').reverse().join('/') : null);

export function brl(amount) {
  const [whole, cents = ''] = String(amount).split('.');
  return `R$ ${Number(whole).toLocaleString('pt-BR')},${(cents + '00').slice(0, 2)}`;
}

/** {missing: true} or {act, validity, basis, lines: [{description, amount}], warning}. */
export function tariffView(tariff) {
  if (!tariff || !Array.isArray(tariff.items) || !tariff.items.length) return { missing: true };
  const from = isoToBr(tariff.valid_from);
  const until = isoToBr(tariff.valid_until);
  return {
    missing: false,
    act: tariff.act,
    validity: until ? `de ${from} a ${until}` : `desde ${from}`,
    basis: tariff.basis || null,
    infraction: tariff.infraction || null,
    lines: tariff.items.map((i) => ({ description: i.description, amount: brl(i.amount) })),
    warning: tariff.renewal_overdue ? 'Tabela com mais de um ano: a lei manda renovar anualmente — confirme com a prefeitura.' : null,
  };
}

/** The checklist question (Paranatinga art. 11 XXII: "A tarifa cobrada … difere da tabela?")
 *  and the infraction (G-VI c "Cobrar tarifa superior ou inferior") about charging another fare
 *  than the table's: the table in force goes next to either. */
export function isTariffItem(item) {
  const texts = [item.label_pt, ...(item.citations || []).map((c) => c?.text)];
  return texts.some((t) => /cobrar tarifa|tarifa cobrada/i.test(t || ''));
}
