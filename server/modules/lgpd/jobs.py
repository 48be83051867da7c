"""Daily task: anonymise the personal data whose retention lapsed (LGPD art. 16)."""
from ..jobs.registry import daily_task
from ..registry.models import Municipality
from .anonymise import run_retention


@daily_task("lgpd.retention", "Dados pessoais anonimizados ao fim da retenção (LGPD art. 16)")
def anonymise_lapsed(today):
    """Every municipality with its periods set; one without them is left as it is."""
    changed = 0
    for municipality in Municipality.query.order_by(Municipality.id):
        out = run_retention(municipality, today)
        changed += len(out["parcial"]) + len(out["total"])
    return changed
