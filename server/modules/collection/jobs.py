"""Daily task of the collection: every applied fine has its charge (txid), also those applied
before this feature existed or while the amount was still unknown. Idempotent."""
from ...core.tenancy import owned
from ..autos.models import AutoCase
from ..autos.process_models import AutoPenalty
from ..jobs.registry import daily_task
from .charges import FINE, ensure_charge
from .models import PixCharge


@daily_task("collection.charges", "Multas aplicadas abertas para pagamento (txid por multa)")
def open_charges(today):
    charged = PixCharge.query.with_entities(PixCharge.penalty_id)
    rows = (AutoPenalty.query.filter(AutoPenalty.state == "aplicada", AutoPenalty.penalty == FINE,
                                     AutoPenalty.amount_brl_cents.is_not(None), AutoPenalty.id.not_in(charged))
            .order_by(AutoPenalty.id).all())
    made = 0
    for penalty in rows:
        case = owned(AutoCase, penalty.case_id, penalty.municipality_id)
        made += ensure_charge(case, penalty) is not None
    return made
