// What the phone says of an infraction's amount (result and auto screens). Pure, no DOM: the
// Node vectors (shared_rules/vectors/amounts/auto-amounts.json, tests/js/auto_amounts_vectors.test.mjs)
// run it. The phone sums no amounts: a CTB/SNT infraction is said to stay out of the municipal
// auto's amounts, an unconfigured amount is "a definir", never R$ 0,00 (issue 18, items 4 and 5).

export function money(cents) {
  return (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
}

const PENALTY_PT = { advertencia: 'advertência', multa: 'multa', suspensao: 'suspensão', cassacao: 'cassação' };

/** What applies now and what later, in words that never contradict another line of the stop:
 *  a CTB infraction goes to the traffic authority (issue 18, item 4); a law's notice says its
 *  deadline now and the penalty later (Paranatinga art. 41); an unknown amount is "a definir". */
export function amountText(amount, penalty = null, inf = null) {
  // Where the municipality recorded its integration into the SNT, its own auto states the CTB
  // infraction, at the CTB's amount (art. 258), which no municipal pack carries.
  if (inf?.jurisdiction === 'snt' && inf?.integrated) return 'Infração de trânsito (CTB), autuada neste auto: o Município integra o SNT (ato registrado). Valor fixado pelo CTB (art. 258), confirme uma a uma.';
  if (inf?.jurisdiction === 'snt') return 'Infração de trânsito (CTB): comunicar ao órgão de trânsito o que foi constatado. Não entra no auto municipal nem nos seus valores.';
  if (penalty?.kind === 'advertencia') return 'Advertência por escrito (sem multa).';
  if (penalty?.kind === 'notificacao') {
    const now = (inf?.measures || []).find((m) => m.days != null);
    const later = (inf?.measures || []).filter((m) => m.only_if_pt).map((m) => PENALTY_PT[m.kind] || m.label_pt);
    const deadline = now ? ` em ${now.days} dias${now.extendable_days ? ` (prorrogáveis por mais ${now.extendable_days})` : ''}` : '';
    return `Agora: notificação para regularizar${deadline}; a notificação não tem multa própria.${later.length ? ` Depois, só se não regularizar: ${later.join(', ')}.` : ''}`;
  }
  if (!amount) return 'Sem valor de multa no pacote da lei.';
  if (amount.brl_cents !== null && amount.brl_cents !== undefined) {
    return `${money(amount.brl_cents)}${amount.unit && amount.unit !== 'BRL' ? ` (${amount.value} ${amount.unit})` : ''}`;
  }
  if (amount.value !== null && amount.value !== undefined) return `${amount.value} ${amount.unit || ''} (valor em reais a definir: unidade fiscal não configurada)`;
  return 'Valor a definir (decreto não configurado).';
}
