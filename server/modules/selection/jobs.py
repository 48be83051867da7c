"""Daily tasks of the selection: the two windows the law gives a candidate."""
from ..jobs.registry import daily_task
from .operations import disable_lapsed_regularizations, forfeit_without_motorcycle


@daily_task("selection.regularize", "Suplentes sem regularização em 5 dias desabilitados (art. 33, § 3º)")
def regularize(today):
    return disable_lapsed_regularizations(today)


@daily_task("selection.motorcycle", "Selecionados sem motocicleta em 90 dias perdem o direito (art. 8º, § 1º)")
def motorcycle(today):
    return forfeit_without_motorcycle(today)
