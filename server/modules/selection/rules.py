"""The selection rules of Paranatinga Lei 311/2007, as pure functions (no Flask, no database).

Readings of the text that are not obvious are stated where they are applied; the list is
repeated in shared_rules/LEGAL.md ("Selection and vacancies").
"""
from dataclasses import dataclass
from datetime import date

LAW = "Lei 311/2007"

# ---- vacancies (art. 4º) ---------------------------------------------------------------------
BASE_VACANCIES = 45          # art. 4º "45 vagas de moto-taxistas"
POPULATION_THRESHOLD = 45_000  # § 1º
INHABITANTS_PER_VACANCY = 1_000  # § 1º "uma vaga para cada 1000 habitantes"


def vacancies_for(population):
    """Vacancies the law allows for a population.

    Reading of art. 4º § 1º: below 45,000 inhabitants "não serão concedidas novas permissões" —
    new *beyond the 45 of the caput* (otherwise the caput's 45 could never be filled); from
    45,000 on, one per full 1,000 inhabitants (45,000 → 45, 45,999 → 45, 46,000 → 46). The law
    does not say whether a partial thousand counts: we count whole thousands only.
    """
    if population < POPULATION_THRESHOLD:
        return BASE_VACANCIES
    return population // INHABITANTS_PER_VACANCY


def vacancy_basis(population):
    if population < POPULATION_THRESHOLD:
        return f"{LAW}, art. 4º, caput e § 1º (população abaixo de 45.000: 45 vagas, sem novas permissões)"
    return f"{LAW}, art. 4º, § 1º (uma vaga para cada 1.000 habitantes)"


# ---- legal conditions (art. 33 caput: "todas as condições exigidas pela lei") -----------------
@dataclass(frozen=True)
class Condition:
    key: str
    label: str
    citation: str
    computed: bool = False  # judged from the candidate's data, not ticked by the clerk


CONDITIONS = [
    Condition("art7_i", "Declaração de que não exerce outra atividade remunerada", "art. 7º, I"),
    Condition("art7_ii_categoria", "Carteira de habilitação na categoria", "art. 7º, II"),
    Condition("art7_ii_tempo", "Habilitação expedida há mais de 1 (um) ano", "art. 7º, II", computed=True),
    Condition("art7_iii", "Atestado de boa saúde da Secretaria de Saúde do município", "art. 7º, III"),
    Condition("art7_iv", "Certidão negativa criminal desta comarca e da do último domicílio", "art. 7º, IV"),
    Condition("art7_v", "Eleitor no município, votou na última eleição ou justificou", "art. 7º, V"),
    Condition("art7_vi", "Em dia com as obrigações militares", "art. 7º, VI"),
    Condition("art7_vii", "Não é titular de mais de uma licença de moto-táxi", "art. 7º, VII"),
    Condition("art7_viii", "Residência fixa no município", "art. 7º, VIII"),
    # Art. 8º applies to the motorcycle; a candidate without one competes and has the window of
    # § 1º (the condition then reads "pendente", never ✗).
    Condition("art8", "Motocicleta conforme o art. 8º (registro em nome do candidato, 125 a 250 cc, "
                      "placa vermelha de aluguel, antenas, alça, faixa, cano revestido, grade)", "art. 8º"),
]
CHECKED_CONDITIONS = [c for c in CONDITIONS if not c.computed]


def condition_results(candidate, on):
    """[(Condition, True | False | None)] for one candidate on a date; None = pending (art. 8º § 1º)."""
    results = []
    for cond in CONDITIONS:
        if cond.key == "art7_ii_tempo":
            first = candidate.cnh_first_issue_date
            ok = first is not None and _years_between(first, on) >= 1 and first != _minus_years(on, 1)
        elif cond.key == "art8" and candidate.vehicle_year is None:
            ok = None
        else:
            ok = bool((candidate.conditions or {}).get(cond.key))
        results.append((cond, ok))
    return results


def is_apto(candidate, on):
    """Art. 33 caput: every condition met (a missing motorcycle is allowed by art. 8º § 1º)."""
    return all(ok is not False for _, ok in condition_results(candidate, on))


def _minus_years(day, years):
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def _years_between(earlier, later):
    return (later.year - earlier.year) - ((later.month, later.day) < (earlier.month, earlier.day))


# ---- ranking (art. 33 § 1º) ------------------------------------------------------------------
SCHOOLING = [
    "Sem escolaridade", "Fundamental incompleto", "Fundamental completo", "Médio incompleto",
    "Médio completo", "Superior incompleto", "Superior completo",
]

# The criteria of § 1º in the law's order, each as (key, label, citation).
LEGAL_CRITERIA = [
    ("profession_since", "Anterioridade no exercício da profissão", "art. 33, § 1º, a"),
    ("cnh_first_issue_date", "Anterioridade na emissão da habilitação", "art. 33, § 1º, b"),
    ("vehicle_year", "Tempo de uso do veículo", "art. 33, § 1º, c"),
    ("schooling", "Maior grau de escolaridade", "art. 33, § 1º, d"),
]


def sort_key(candidate, extra_criteria):
    """Smaller sorts first.

    a) earlier start in the profession first; b) earlier first licence first;
    c) "tempo de uso do veículo": the law does not say which way it counts. We rank the newer
       motorcycle (less use) first, the reading the mayor's veto of art. 8º V d gives ("quanto
       mais novo for o veículo, mais segurança"); a candidate without a motorcycle (art. 8º § 1º)
       comes after every candidate with one on this criterion. Open to the secretariat's
       decision: see shared_rules/LEGAL.md.
    d) higher schooling first; then the edital's own criteria in its order.
    """
    vehicle = -candidate.vehicle_year if candidate.vehicle_year is not None else float("inf")
    key = [candidate.profession_since.toordinal(), candidate.cnh_first_issue_date.toordinal(),
           vehicle, -candidate.schooling]
    for crit in extra_criteria or []:
        value = (candidate.extra_values or {}).get(crit["key"])
        if value is None:
            key.append(float("inf"))
        else:
            key.append(-value if crit.get("higher_first", True) else value)
    return tuple(key)


@dataclass
class Ranking:
    ordered: list        # apto candidates, classification order (ties in tie-break order)
    ties: list           # [[candidate, …]] groups the criteria leave equal, in order
    unresolved: list     # the tie groups whose tie-break is missing or incomplete
    inaptos: list        # candidates failing a condition (art. 33 caput)


def rank(candidates, extra_criteria, on: date):
    """Classify the apto candidates; report every tie, never break one silently."""
    aptos = [c for c in candidates if is_apto(c, on)]
    inaptos = [c for c in candidates if not is_apto(c, on)]
    aptos.sort(key=lambda c: (sort_key(c, extra_criteria), c.id))
    groups = []
    for cand in aptos:
        if groups and sort_key(groups[-1][0], extra_criteria) == sort_key(cand, extra_criteria):
            groups[-1].append(cand)
        else:
            groups.append([cand])
    ordered, ties, unresolved = [], [], []
    for group in groups:
        if len(group) > 1:
            ties.append(group)
            positions = [c.tie_break for c in group]
            if None in positions or len(set(positions)) != len(group):
                unresolved.append(group)
            else:
                group.sort(key=lambda c: c.tie_break)
        ordered.extend(group)
    return Ranking(ordered, ties, unresolved, inaptos)


# ---- deadlines ---------------------------------------------------------------------------------
# Art. 33 § 3º: "prazo não superior a 5 (cinco) dias" — a ceiling; the law does not say
# business or calendar days, so we use 5 calendar days: never longer than the law allows,
# whichever count it meant.
REGULARIZE_DAYS = 5
REGULARIZE_COUNTING_OPTION = "paranatinga.art33_3_counting"  # plain (default) | cc_132 | cpc_219
# Art. 8º § 1º: "deverá dentro de 90 (noventa) regularizar sua pendência" — the unit is missing
# in the text; we read days (the only unit that fits "90 (noventa)" in a deadline of this kind).
MOTORCYCLE_DAYS = 90
