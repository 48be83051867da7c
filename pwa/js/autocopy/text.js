// Words shared by the copy's page and its PDF.
const brl = (cents) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** An infraction's amount as the copy states it: reais, the law's unit, or "valor a definir". */
export function amountLabel(inf) {
  if (inf.amount_cents !== undefined) return brl(inf.amount_cents);
  if (inf.amount_text) return `${inf.amount_text} (valor em reais a definir)`;
  return 'valor a definir';
}

const title = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const STEP_PT = { defesa: 'defesa', defesa_previa: 'defesa prévia', recurso: 'recurso' };

/** "Alvará de autorização nº": the law's instrument (codec `terms.permit`), or both words when a
 *  copy from an older phone did not say it. */
export function permitLabel(copy) {
  return `${copy.terms?.permit ? title(copy.terms.permit) : 'Permissão ou alvará'} nº`;
}

/** The first step's deadline as the law names the step ("Prazo de recurso: 3 dias…"). */
export function defenceLine(copy) {
  const step = STEP_PT[copy.terms?.step] || 'defesa ou recurso';
  const d = copy.defence;
  if (d.days === null) return `Prazo de ${step}: conta a partir da notificação; a Prefeitura informa o prazo na notificação.`;
  const due = d.due ? ` (até ${d.due.slice(8, 10)}/${d.due.slice(5, 7)}/${d.due.slice(0, 4)})` : '';
  return `Prazo de ${step}: ${d.days} dias${d.instance ? `, perante ${d.instance}` : ''}${due}.`;
}
