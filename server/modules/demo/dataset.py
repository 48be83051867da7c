"""Demo data: the three municipalities of the seed laws with fictitious people and vehicles, and
(for `flask demo load`, or a test that asks) the synthetic example Serra Azul do Norte — a
fictional municipality whose law was written to exercise the pack format, marked as an example
wherever it appears.

Deterministic (fixed random seed) so screenshots and manual tests are repeatable. Identifiers are
generated with valid check digits but belong to nobody.
"""
import io
import random
from datetime import date, datetime, time, timedelta
from datetime import timezone as dt_timezone

from PIL import Image, ImageDraw

from ...core.clock import local_today, timezone as clock_timezone
from ...core.validation import cnh_number_is_valid, cpf_check_digits
from ...extensions import db
from ...rules.legal_calendar import lei_810_months
from ..accounts.models import User
from ..credentials.operations import create_key, issue_credential
from ..issuance.models import COVERED_PERSONS, DocumentCheck, InsurancePolicy, IssqnCharge, Vistoria
from ..issuance.operations import create_issqn_charges
from ..issuance.requirements import EXTRA_CHECKS
from ..issuance.validity import issue_validity, rule_for
from ..permits.operations import change_permit_status
from ..registry.facts import DOCUMENT_CHECKS, document_questions, document_subject
from ..registry.legal import create_legal_pontos
from ..registry.models import Company, Municipality, Operator, Permit, PermitStatusChange, Ponto, UnitValue, Vehicle
from ..registry.photos import store_operator_photo
from ..rules.service import composed_for
from .renewal_documents import load_renewal_documents_demo
from .review import load_review_demo
from .selection import load_selection_demo


DEMO_PASSWORD = "demo-motofiscal"

MUNICIPALITIES = [
    {"slug": "nortelandia", "ibge_code": "5106000", "name": "Nortelândia", "uf": "MT",
     "regimes": ["federal-base", "nortelandia-lei-030-1998"],
     "settings": {"permit_label": "Alvará de autorização", "holder": "company", **{
         "vistoria_validity_months": 12, "vistoria_validity_source": "Demonstração: período não definido em lei"}}},
    {"slug": "sapezal", "ibge_code": "5107875", "name": "Sapezal", "uf": "MT",
     "regimes": ["federal-base", "sapezal-lei-125-1999"],
     "settings": {"permit_label": "Alvará de autorização", "holder": "person", **{
         "vistoria_validity_months": 12, "vistoria_validity_source": "Demonstração: período não definido em lei"}}},
    {"slug": "paranatinga", "ibge_code": "5106307", "name": "Paranatinga", "uf": "MT",
     "regimes": ["federal-base", "paranatinga-lei-311-2007"],
     "settings": {"permit_label": "Termo de permissão", "holder": "person",
                  "vistoria_validity_months": 12, "vistoria_validity_source": "Demonstração: período não definido em lei"}},
]

# The synthetic example (issue 38): a fictional municipality and law (shared_rules/laws/), never a
# real one. Its IBGE code starts with 99, a state code that does not exist.
EXAMPLE_MUNICIPALITY = {
    "slug": "serra-azul-do-norte", "ibge_code": "9900412", "name": "Serra Azul do Norte (exemplo fictício)", "uf": "MT",
    "regimes": ["federal-base", "serra-azul-do-norte-lei-412-2015"],
    "settings": {"permit_label": "Alvará de autorização", "holder": "person", "synthetic_example": True,
                 "vistoria_validity_months": 12, "vistoria_validity_source": "Lei 412/2015, art. 8º, II (vistoria anual)"}}
# A UFM value for the example's demo, marked as invented: no law anywhere sets it.
EXAMPLE_UFM = ("2015-01-01", "5.00", "Valor fictício de demonstração (município fictício): não é a UFM de lugar algum")
# Document checks a pack declares whose demo answer is "no": the transitional facts of the example.
DEMO_DOCUMENT_NO = {"operator.registered_under_previous_law", "vehicle.age_extension_approved",
                    "vehicle.in_service_at_publication"}

# Pontos the laws leave to the municipality (Sapezal's are named by its law: registry.legal).
PONTOS = {
    "sapezal": [],
    "nortelandia": [("Praça da Matriz", 6, None), ("Rodoviária", 4, None)],
    "paranatinga": [("Rodoviária Municipal", 8, None), ("Praça Central", 8, None),
                    ("Hospital Municipal", 4, None)],
    "serra-azul-do-norte": [("Praça da Matriz", 6, "Decreto nº 15/2015 (fictício, demonstração)"),
                            ("Rodoviária", 4, "Decreto nº 15/2015 (fictício, demonstração)")],
}
# Oldest motorcycle each law admits (years of use), for demo vehicles that pass it.
MAX_VEHICLE_AGE = {"sapezal": 3, "serra-azul-do-norte": 5}

FIRST = ["João", "Maria", "José", "Ana", "Antônio", "Francisca", "Carlos", "Juliana", "Paulo",
         "Adriana", "Lucas", "Márcia", "Luiz", "Aline", "Pedro", "Sandra", "Marcos", "Patrícia",
         "Rafael", "Cláudia", "Edson", "Rosângela", "Wellington", "Josiane"]
LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
        "Lima", "Gomes", "Ribeiro", "Carvalho", "Almeida", "Lopes", "Barbosa", "Cardoso",
        "Moraes", "Campos", "Arruda", "Macedo"]
BIKES = [("Honda", "CG 160 Fan", 162), ("Honda", "CG 125 Fan", 124), ("Yamaha", "Factor 150", 149),
         ("Honda", "CG 150 Titan", 149), ("Yamaha", "YBR 125", 124), ("Honda", "Bros 160", 162),
         ("Suzuki", "Yes 125", 124)]
STREETS = ["Rua das Palmeiras", "Av. Mato Grosso", "Rua Rio Branco", "Rua Cuiabá", "Av. Brasil",
           "Rua dos Ipês"]
BLOOD = ["O+", "A+", "B+", "O-", "AB+", "A-"]


def _cpf(rng):
    return cpf_check_digits("".join(str(rng.randint(0, 9)) for _ in range(9)))


def _cnh(rng):
    while True:
        candidate = "".join(str(rng.randint(0, 9)) for _ in range(9))
        for dv in range(100):
            number = f"{candidate}{dv:02d}"
            if cnh_number_is_valid(number):
                return number


def _renavam(rng):
    base = [rng.randint(0, 9) for _ in range(10)]
    total = sum(d * w for d, w in zip(base, [3, 2, 9, 8, 7, 6, 5, 4, 3, 2]))
    return "".join(map(str, base)) + str((total * 10) % 11 % 10)


def _chassis(rng):
    alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    return "9C2" + "".join(rng.choice(alphabet) for _ in range(14))


def _plate(rng, mercosul):
    letters = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(3))
    if mercosul:
        return f"{letters}{rng.randint(0, 9)}{rng.choice('ABCDEFGHIJ')}{rng.randint(0, 99):02d}"
    return f"{letters}{rng.randint(0, 9999):04d}"


def _operator(rng, muni, today, company=None):
    birth = today - timedelta(days=rng.randint(22 * 365, 55 * 365))
    first_cnh = birth + timedelta(days=rng.randint(18 * 365 + 30, 21 * 365))
    return Operator(
        municipality_id=muni.id, name=" ".join([rng.choice(FIRST), *rng.sample(LAST, 2)]),
        cpf=_cpf(rng), cnh_number=_cnh(rng), cnh_category=rng.choice(["A", "AB", "AB"]),
        cnh_first_issue_date=first_cnh, cnh_expiry=today + timedelta(days=rng.randint(-60, 1500)),
        birth_date=birth, blood_type=rng.choice(BLOOD),
        address=f"{rng.choice(STREETS)}, {rng.randint(10, 2500)} – {muni.name}/MT",
        residence_since=birth + timedelta(days=rng.randint(5 * 365, 15 * 365)),
        phone=f"(66) 9{rng.randint(8000, 9999)}-{rng.randint(1000, 9999)}", company=company)


def _vehicle(rng, muni, today, index):
    make, model, cc = BIKES[index % len(BIKES)]
    return Vehicle(municipality_id=muni.id, plate=_plate(rng, index % 2 == 0), renavam=_renavam(rng),
                   chassis=_chassis(rng), make=make, model=model,
                   # Sapezal admits motorcycles of at most 3 years of use (Lei 125/1999, art. 5º).
                   year_manufacture=today.year - rng.randint(0, MAX_VEHICLE_AGE.get(muni.slug, 14)), engine_cc=cc,
                   plate_category="aluguel" if index % 9 else "particular",
                   plate_colour="vermelha" if index % 9 else "cinza")


# (status, days until expiry relative to today) — every status appears in every municipality.
PERMIT_PLAN = [("ativo", 200), ("ativo", 320), ("ativo", 45), ("ativo", 150), ("ativo", 12),
               ("ativo", 260), ("vencido", -20), ("suspenso", 90), ("cassado", 100),
               ("caducado", -400), ("extinto", 30)]


def _last_vistoria(rng, issued, today):
    """The vistoria before issue; a permit in its second year had a periodic one since (now and
    then close to a year ago, so the dashboard warns before it lapses)."""
    if (today - issued).days < 330:
        return issued - timedelta(days=rng.randint(2, 20))
    return max(issued, today - timedelta(days=rng.choice([40, 150, 250, 330])))


def _validity_dates(muni, kind, status, days, today):
    """(valid_from, valid_until, renewed_on) of a planned permit, the validity computed by the law
    (issuance.validity) from an issue date chosen so the permit ends about `days` from today.
    Sapezal's alvarás all end on a 31 March (Lei 125/1999, art. 10, § 1º): a permit still in force
    ends on the next one and was issued in the year before it; a lapsed one ended on an earlier one."""
    rule = rule_for(muni, kind)
    target = today + timedelta(days=days)
    if not rule.march_cycle:
        valid_from = lei_810_months(target, -rule.months)
        return valid_from, issue_validity(muni, kind, valid_from), None
    if days >= 0:
        until = date(today.year, 3, 31) if today <= date(today.year, 3, 31) else date(today.year + 1, 3, 31)
    elif status == "vencido":  # not renewed by the last 31 March
        until = date(today.year, 3, 31) if today > date(today.year, 3, 31) else date(today.year - 1, 3, 31)
    else:
        until = date(target.year, 3, 31) if target >= date(target.year, 3, 31) else date(target.year - 1, 3, 31)
    # Issued within the year before `until` (1 April … 31 March), so its validity ends on `until`.
    valid_from = min(max(target - timedelta(days=365), date(until.year - 1, 4, 1)), until, today)
    if days >= 0 and valid_from > today - timedelta(days=RENEWED_WITHIN_DAYS):
        # The first days of a cycle: a permit in force was renewed before 31 March rather than
        # issued these last days: a permit issued today cannot have its next renewal instructed
        # yet (the demo of 1–4 April had no renewable Sapezal permit), and a story step dated
        # before the issue (suspended 9 days ago, cassado 23 days ago) reads as nonsense. Issued a
        # cycle earlier, renewed in March, before any step of its story.
        issued = date(until.year - 2, 4, 1)
        return issued, until, today - timedelta(days=RENEWED_WITHIN_DAYS + 1)
    return valid_from, issue_validity(muni, kind, valid_from), None


# A March-cycle permit in force that would have been issued less than this many days ago was
# renewed instead (see _validity_dates); more than the oldest step of LIFECYCLE (23 days).
RENEWED_WITHIN_DAYS = 30


def _permit_numbers(issue_dates):
    """Numbers as a secretariat gives them: in issue order, a sequence per year (001/2025, 002/2025,
    001/2026…), so a later permit never carries a smaller number of the same year."""
    numbers, per_year = [None] * len(issue_dates), {}
    for i in sorted(range(len(issue_dates)), key=lambda k: issue_dates[k]):
        year = issue_dates[i].year
        per_year[year] = per_year.get(year, 0) + 1
        numbers[i] = f"{per_year[year]:03d}/{year}"
    return numbers


def demo_logins():
    """The demo logins present in the database (for `make run` to print every time)."""
    users = User.query.filter(User.role != "operator").order_by(User.id).all()
    return [(u.username, u.role, u.municipality.name if u.municipality else "todos")
            for u in users if u.check_password(DEMO_PASSWORD)]


def load_demo(today=None, credentials=True, example=False):
    """Create the demo data (staged: `flask demo load`'s command, or the test, commits it).
    Returns the printed login table. Refuses to run on a non-empty DB.
    `example`: also the synthetic example municipality (what `flask demo load` shows)."""
    if Municipality.query.first() is not None:
        return None
    today = today or local_today()
    rng = random.Random(20261129)
    logins = []
    admin = User(username="admin", name="Administrador da plataforma", role="admin")
    admin.set_password(DEMO_PASSWORD)
    db.session.add(admin)
    logins.append(("admin", "admin", "todos"))
    for spec in MUNICIPALITIES + ([EXAMPLE_MUNICIPALITY] if example else []):
        muni = Municipality(**spec)
        db.session.add(muni)
        db.session.flush()
        pontos = create_legal_pontos(muni) + [
            Ponto(municipality_id=muni.id, name=n, capacity=c, legal_basis=b, location=f"{n}, {muni.name}/MT")
            for n, c, b in PONTOS[muni.slug]]
        db.session.add_all(pontos)
        companies = []
        if muni.slug == "nortelandia":
            companies = [Company(municipality_id=muni.id, legal_name=name, trade_name=trade,
                                 cnpj=cnpj, address=f"Av. Pref. João Macaúba, {100 + i} – Nortelândia/MT")
                         for i, (name, trade, cnpj) in enumerate([
                             ("Norte Moto Táxi Ltda.", "Norte Moto Táxi", "11222333000181"),
                             ("Moto Rápido Nortelândia ME", "Moto Rápido", "45723174000110")])]
            db.session.add_all(companies)
        db.session.flush()
        seats = [p for p in pontos for _ in range(p.capacity)]
        kind = "termo_permissao" if muni.slug == "paranatinga" else "alvara"
        dates = [_validity_dates(muni, kind, status, days, today) for status, days in PERMIT_PLAN]
        numbers = _permit_numbers([valid_from for valid_from, _, _ in dates])
        for i, (status, days) in enumerate(PERMIT_PLAN):
            company = companies[i % 2] if companies else None
            operator = _operator(rng, muni, today, company)
            vehicle = _vehicle(rng, muni, today, i)
            db.session.add_all([operator, vehicle])
            db.session.flush()
            valid_from, valid_until, renewed_on = dates[i]
            permit = Permit(
                municipality_id=muni.id, number=numbers[i],
                kind=kind, holder_company=company, holder_operator=None if company else operator,
                vehicle=vehicle, ponto=seats[i] if i < len(seats) else None,
                issued_on=valid_from, valid_from=valid_from, valid_until=valid_until, status="ativo",
                status_changed_at=local_morning(valid_from), taxpayer_number=f"{rng.randint(1000, 99999)}-{rng.randint(0, 9)}",
                issqn_status="em_dia")
            if company:
                permit.drivers = [operator]
            db.session.add(permit)
            db.session.add(PermitStatusChange(permit=permit, to_status="ativo", action="issue", reason="Emissão",
                                              valid_until=issue_validity(muni, kind, valid_from) if renewed_on else valid_until,
                                              at=local_morning(valid_from)))
            if renewed_on:
                db.session.add(PermitStatusChange(permit=permit, from_status="ativo", to_status="ativo", action="renew",
                                                  reason="Renovação anual", valid_until=valid_until,
                                                  at=local_morning(renewed_on)))
                permit.status_changed_at = local_morning(renewed_on)
            _issuance_records(rng, muni, operator, vehicle, valid_from, today)
        if muni.settings.get("synthetic_example"):
            valid_from, value, source = EXAMPLE_UFM
            db.session.add(UnitValue(municipality_id=muni.id, unit="UFM", valid_from=date.fromisoformat(valid_from),
                                     value_brl=value, source=source))
        for role, username in (("backoffice", f"backoffice.{muni.slug}"), ("fiscal", f"fiscal.{muni.slug}")):
            user = User(username=username, name=f"{'Back office' if role == 'backoffice' else 'Fiscal'} de {muni.name}",
                        role=role, municipality_id=muni.id,
                        registration=f"MAT-{rng.randint(1000, 9999)}" if role == "fiscal" else None)
            user.set_password(DEMO_PASSWORD)
            db.session.add(user)
            logins.append((username, role, muni.name))
    db.session.flush()
    for muni in Municipality.query.order_by(Municipality.id):
        _credentials_and_lifecycle(muni, today, credentials)
    _issqn_history(today)
    load_renewal_documents_demo(today)
    if credentials:  # the full demo (make run) gets synced field records to review and Paranatinga's
        # selection history (editais, classification, suplentes); the light test set does not
        load_selection_demo(today)
        load_review_demo()
    return logins


def _issuance_records(rng, muni, operator, vehicle, issued, today):
    """What issuing needed, recorded as the secretariat would have: the documents checked, the
    vistoria before issue (and a periodic one since), the insurance policy the law asks for."""
    declared = composed_for(muni).facts
    for fact in dict.fromkeys([*DOCUMENT_CHECKS, *document_questions(declared)]):
        subject = document_subject(fact, declared.get(fact))
        subject_id = vehicle.id if subject == "vehicle" else operator.id
        db.session.add(DocumentCheck(municipality_id=muni.id, subject=subject, subject_id=subject_id, fact=fact,
                                     value=1 if fact == "operator.licences_count" else fact not in DEMO_DOCUMENT_NO,
                                     checked_on=issued - timedelta(days=3)))
    for subject, fact, _label, _basis in EXTRA_CHECKS.get(muni.slug, []):
        db.session.add(DocumentCheck(municipality_id=muni.id, subject=subject,
                                     subject_id=vehicle.id if subject == "vehicle" else operator.id, fact=fact,
                                     value=True, checked_on=issued - timedelta(days=3)))
    inspected = _last_vistoria(rng, issued, today)
    db.session.add(Vistoria(municipality_id=muni.id, vehicle_id=vehicle.id, kind="inicial" if inspected < issued
                            else "periodica", inspected_on=inspected, result="aprovada", items={},
                            inspector_name="Fiscal de demonstração"))
    ends = today + timedelta(days=rng.choice([10, 120, 240, 300]))
    kind = {"sapezal": "terceiros_app", "nortelandia": "vida"}.get(muni.slug, "outro")
    covers = {"temporary_disability": 2500, "permanent_disability": 10000, "death": 20000, "personal_accidents": True}
    if muni.slug == "sapezal":  # art. 4º § 1º: third parties, driver and passenger, each covered
        amounts = {f"{person}_{c}": v for person in COVERED_PERSONS for c, v in covers.items()}
    else:
        amounts = {f"cover_{c}": v for c, v in covers.items()}
        amounts.update(cover_medical=15000 if kind == "vida" else None, coverage_attested=True)
    db.session.add(InsurancePolicy(
        municipality_id=muni.id, vehicle_id=vehicle.id, kind=kind, insurer="Seguradora Exemplo S.A.",
        policy_number=f"APS-{rng.randint(100000, 999999)}", starts_on=ends - timedelta(days=365), ends_on=ends,
        copy_filed=True, **amounts))


def _issqn_history(today):
    """Nortelândia's monthly ISSQN of the last three months, created by the daily task's own
    function and paid on the 8th (the law's deadline is the 10th)."""
    first = today.replace(day=1)
    months = []
    for _ in range(3):
        months.insert(0, first)
        first = (first - timedelta(days=1)).replace(day=1)
    for month_start in months:
        create_issqn_charges(month_start)
    for charge in IssqnCharge.query.all():
        if charge.due_on.replace(day=8) <= today:
            charge.paid_on, charge.paid_amount_brl = charge.due_on.replace(day=8), charge.amount_brl
            charge.payment_reference = f"DAM {charge.month:%m%Y}-{charge.company_id}"
    db.session.flush()


# How each planned status is reached through the real lifecycle operations: (action, the day it
# happened in the permit's story, reason). Days are functions of (permit, today), so the history
# a clerk reads follows the permit's own dates rather than the day the demo was loaded.
LIFECYCLE = {
    "vencido": [("expire", lambda p, t: p.valid_until + timedelta(days=1), None)],
    "suspenso": [("suspend", lambda p, t: t - timedelta(days=9),
                  "Seguro de acidentes pessoais (APP) vencido; suspensa até a apresentação da nova apólice.")],
    "cassado": [("cassar", lambda p, t: t - timedelta(days=23),
                 "Cassação decidida em processo administrativo (reincidência em infração grave).")],
    "caducado": [("expire", lambda p, t: p.valid_until + timedelta(days=1), None),
                 ("lapse", lambda p, t: p.valid_until + timedelta(days=31),
                  "Não renovada no prazo: caducidade declarada.")],
    "extinto": [("extinguish", lambda p, t: t - timedelta(days=4),
                 "Desistência do permissionário, com termo assinado.")],
}


def _story(muni, status, permit, today):
    """The planned story under the municipality's law. Where an alvará not renewed in time is
    suspended and lapses 30 days later (Sapezal Lei 125/1999, art. 10, § 2º), there is no
    "vencido": the permit is suspended the day after its validity, and lapsed once 30 days passed."""
    rule = rule_for(muni, permit.kind)
    if rule is None or rule.after_expiry != "suspenso" or status not in ("vencido", "caducado"):
        return LIFECYCLE.get(status, [])
    suspend = ("expire_suspend", lambda p, t: p.valid_until + timedelta(days=1),
               f"Não renovado até {_br(permit.valid_until)}: suspenso ({rule.grace_basis}).")
    if (today - permit.valid_until).days <= rule.grace_days:
        return [suspend]
    return [suspend, ("lapse", lambda p, t: p.valid_until + timedelta(days=rule.grace_days + 1),
                      f"Não renovado até {_br(permit.valid_until)}: caducidade 30 dias após a suspensão "
                      f"({rule.grace_basis}).")]


def _br(day):
    return day.strftime("%d/%m/%Y")


def local_morning(day):
    """09:30 in the municipality's time zone on `day`, as the UTC instant the database stores."""
    return datetime.combine(day, time(9, 30), tzinfo=clock_timezone()).astimezone(dt_timezone.utc)


AVATAR_COLOURS = [(176, 196, 222), (205, 186, 150), (180, 205, 180), (210, 180, 190), (190, 190, 215)]
SKIN = [(141, 85, 36), (198, 134, 66), (224, 172, 105), (241, 194, 125), (255, 219, 172)]


def _avatar(rng):
    """A drawn portrait (fictitious people get drawn faces, not photos of real persons)."""
    img = Image.new("RGB", (600, 800), rng.choice(AVATAR_COLOURS))
    draw = ImageDraw.Draw(img)
    skin, shirt = rng.choice(SKIN), rng.choice([(30, 60, 110), (120, 30, 30), (40, 90, 60), (60, 60, 60)])
    draw.ellipse((90, 560, 510, 980), fill=shirt)  # shoulders
    draw.rectangle((255, 470, 345, 600), fill=skin)  # neck
    draw.ellipse((170, 190, 430, 520), fill=skin)  # face
    draw.chord((160, 160, 440, 420), 180, 360, fill=(40, 30, 20))  # hair
    for x in (245, 355):
        draw.ellipse((x - 12, 330, x + 12, 354), fill=(30, 30, 30))
    draw.arc((255, 390, 345, 450), 20, 160, fill=(120, 50, 50), width=6)
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


def _credentials_and_lifecycle(muni, today, credentials=True):
    """Issuer key, crachás for permits still valid, then the planned status changes — all through
    the real operations, so history, audit log and the devices' status list are consistent."""
    if credentials:
        rng = random.Random(muni.id)
        for operator in Operator.query.filter_by(municipality_id=muni.id).order_by(Operator.id):
            store_operator_photo(operator, _avatar(rng))
        create_key(muni)
    permits = Permit.query.filter_by(municipality_id=muni.id).order_by(Permit.id).all()
    for permit, (status, _days) in zip(permits, PERMIT_PLAN):
        if credentials and permit.valid_until >= today:
            issue_credential(permit, reason="emissão")
        for action, day_of, reason in _story(muni, status, permit, today):
            day = day_of(permit, today)
            until = today + timedelta(days=30) if action == "suspend" else None
            reason = reason or f"Validade encerrada em {permit.valid_until.strftime('%d/%m/%Y')}."
            change_permit_status(permit, action, reason, suspended_until=until)
            _backdate_last_change(permit, action, local_morning(day))


def _backdate_last_change(permit, action, at):
    """Date the change just made (history and permit) on the day of the permit's story. The audit
    row keeps its real time: the audit log records when the system acted, and stays monotonic."""
    change = (PermitStatusChange.query.filter_by(permit_id=permit.id, action=action)
              .order_by(PermitStatusChange.id.desc()).first())
    change.at = permit.status_changed_at = at
    db.session.flush()
