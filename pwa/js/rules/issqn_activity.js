// Which motorcycles are "em atividade" in a month (a law's ISSQN per motorcycle in activity): the twin of
// server/rules/issqn_activity.py. "ultimo_dia" (default): permits in force on the month's last day;
// "algum_dia": in force on any day of the month. Dates are ISO strings (they compare as dates).
export const READINGS = ["ultimo_dia", "algum_dia"];
export const STATUSES = ["ativo", "suspenso", "vencido"];

export function inActivity(validFrom, validUntil, status, firstDay, lastDay, reading = "ultimo_dia") {
  if (!STATUSES.includes(status)) return false;
  if (reading === "algum_dia") return validFrom <= lastDay && validUntil >= firstDay;
  return validFrom <= lastDay && lastDay <= validUntil;
}

// "2026-03" → ["2026-03-01", "2026-03-31"].
export function monthBounds(month) {
  const [y, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return [`${month}-01`, `${month}-${String(last).padStart(2, "0")}`];
}
