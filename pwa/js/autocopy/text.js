// Words shared by the copy's page and its PDF.
const brl = (cents) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** An infraction's amount as the copy states it: reais, the law's unit, or "valor a definir". */
export function amountLabel(inf) {
  if (inf.amount_cents !== undefined) return brl(inf.amount_cents);
  if (inf.amount_text) return `${inf.amount_text} (valor em reais a definir)`;
  return 'valor a definir';
}
