"""LGPD art. 18, III: the trail of corrections of the titular's record, as the audit log kept it
(permits.entities.save_entity records each change with who, when, before, after and the
reason the clerk gave). Shown on the request page and included in the export."""
from ...core.audit import AuditLog

TRAIL_ACTIONS = ("create", "update", "photo", "lgpd_anonymise")
NOT_A_DATUM = {"name_search", "updated_at"}


def rectification_trail(operator):
    """[(audit entry, [(field, old, new)])], oldest first."""
    entries = (AuditLog.query.filter(AuditLog.entity == "operator", AuditLog.entity_id == str(operator.id),
                                     AuditLog.action.in_(TRAIL_ACTIONS))
               .order_by(AuditLog.id).all())
    trail = []
    for entry in entries:
        before, after = entry.before or {}, entry.after or {}
        changed = [(k, before.get(k), after.get(k)) for k in sorted(set(before) | set(after))
                   if before.get(k) != after.get(k) and k not in NOT_A_DATUM]
        trail.append((entry, changed))
    return trail


def trail_rows(operator):
    """The trail as plain rows for the export bundle and PDF."""
    return [{"quando": entry.at.isoformat(), "quem": entry.actor_label, "acao": entry.action,
             "motivo": entry.reason, "alteracoes": [{"campo": k, "antes": _text(old), "depois": _text(new)}
                                                   for k, old, new in changed]}
            for entry, changed in rectification_trail(operator)]


def _text(value):
    return None if value is None else str(value)


def correction_reason(operator, data, text):
    """(reason, None) or (None, {field: [message]}): required when any value changes."""
    changed = [k for k, v in data.items() if getattr(operator, k, None) != v]
    text = (text or "").strip()
    if changed and len(text) < 3:
        return None, {"correction_reason": ["Informe o motivo da correção (LGPD art. 18, III)."]}
    if len(text) > 500:
        return None, {"correction_reason": ["Use no máximo 500 caracteres."]}
    return (text or None), None


def anonymized_details(operator):
    """The registry page's line saying the row was anonymised, and how far."""
    if not operator.anonymized_scope:
        return []
    how = "por completo" if operator.anonymized_scope == "total" else "em parte (autos ainda retidos)"
    return [("LGPD", f"Dados pessoais anonimizados {how} em {operator.anonymized_on:%d/%m/%Y} (fim da retenção, art. 16)")]
