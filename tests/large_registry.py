"""A registry the size of a state's largest city, written in bulk for tests and benches.

`populate(app, count)` builds Sapezal (its real rule packs) with `count` permits, each with its own
holder (name, CPF, photo path, CNH and birth dates) and vehicle, with realistic variety (random
names, dates, models, statuses), and, with `credentials=True`, a signed crachá for every active
permit and the status-list entries the operations append for them (credentials.operations):
what 20,000 or 100,000 back-office actions would leave, in seconds.

Identifiers are unique by construction, not by luck: CPFs, plates and RENAVAMs are drawn at
random (as varied as real ones: a pattern would make them compress better than a real registry's)
and a draw already taken is drawn again, so 100,000 rows never collide (plain random draws did past
~30,000: the birthday bound of 10⁹ CPFs).
"""
import random
from datetime import date, datetime, timedelta, timezone

from sqlalchemy import insert, text

from server.core.validation import cpf_check_digits
from server.extensions import db

PASSWORD = "bench-motofiscal"
FIRST = ["João", "Maria", "José", "Ana", "Antônio", "Francisca", "Carlos", "Juliana", "Paulo", "Adriana",
         "Lucas", "Márcia", "Luiz", "Aline", "Pedro", "Sandra", "Marcos", "Patrícia", "Rafael", "Cláudia",
         "Gabriel", "Débora", "Wellington", "Rosângela", "Edivaldo", "Cleide", "Valdir", "Luana"]
LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
        "Ribeiro", "Carvalho", "Almeida", "Lopes", "Barbosa", "Cardoso", "Moraes", "Campos", "Arruda", "Macedo",
        "Nascimento", "Teixeira", "Moreira", "Rocha", "Dias", "Vieira", "Batista", "Freitas", "Cunha", "Pinto"]
MODELS = [("Honda", "CG 160 Fan"), ("Honda", "CG 160 Titan"), ("Honda", "NXR 160 Bros"), ("Yamaha", "Factor 150"),
          ("Yamaha", "Fazer 250"), ("Honda", "Biz 125"), ("Yamaha", "Crosser 150"), ("Honda", "Pop 110i")]
STATUSES = ["ativo"] * 16 + ["vencido", "suspenso", "cassado", "extinto"]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BATCH = 5000

class Unique:
    """Random draws from `draw(rng)`, never the same value twice."""

    def __init__(self, rng, draw):
        self.rng, self.draw, self.seen = rng, draw, set()

    def __call__(self):
        while True:
            value = self.draw(self.rng)
            if value not in self.seen:
                self.seen.add(value)
                return value


def _cpf(rng):
    return cpf_check_digits(f"{rng.randrange(10**9):09d}")


def _plate(rng):  # Mercosul: three letters, a digit, a letter, two digits
    return ("".join(rng.choice(LETTERS) for _ in range(3)) + str(rng.randrange(10)) + rng.choice(LETTERS)
            + f"{rng.randrange(100):02d}")


def _renavam(rng):
    return f"{rng.randrange(10**11):011d}"


def populate(app, count, seed=10_000, credentials=False, slug="sapezal", username="fiscal.bench"):
    """The municipality's id, after writing `count` permits (and their crachás) in bulk."""
    from server.modules.accounts.models import User
    from server.modules.demo.dataset import MUNICIPALITIES
    from server.modules.registry.models import Municipality, Operator, Permit, Ponto, Vehicle

    rng = random.Random(seed)
    cpf, plate, renavam = Unique(rng, _cpf), Unique(rng, _plate), Unique(rng, _renavam)
    today, now = date.today(), datetime.now(timezone.utc)
    with app.app_context():
        spec = next(m for m in MUNICIPALITIES if m["slug"] == slug)
        muni = Municipality(**spec)
        db.session.add(muni)
        db.session.flush()
        user = User(username=username, name="Fiscal", role="fiscal", municipality_id=muni.id)
        user.set_password(PASSWORD)
        db.session.add(user)
        pontos = [Ponto(municipality_id=muni.id, name=f"Ponto {i}", capacity=count, location=f"Rua {i}, Centro")
                  for i in range(40)]
        db.session.add_all(pontos)
        db.session.flush()
        mid, ponto_ids = muni.id, [p.id for p in pontos]
        db.session.commit()

        def day(base, spread):
            return base + timedelta(days=rng.randint(-spread, spread))

        for start in range(0, count, BATCH):
            ids = range(start + 1, min(count, start + BATCH) + 1)
            db.session.execute(insert(Operator), [{
                "id": i, "municipality_id": mid, "cpf": cpf(),
                "cnh_number": f"{rng.randrange(10**11):011d}",
                "name": f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}",
                "photo_path": f"{mid}/{rng.getrandbits(256):064x}.jpg",
                "cnh_category": rng.choice(["A", "A", "AB", "AB", "AC"]),
                "cnh_first_issue_date": day(date(2008, 1, 1), 2500), "cnh_expiry": day(today + timedelta(days=700), 700),
                "birth_date": day(date(1985, 1, 1), 4000), "created_at": now, "updated_at": now} for i in ids])
            db.session.execute(insert(Vehicle), [{
                "id": i, "municipality_id": mid, "plate": plate(), "renavam": renavam(),
                "chassis": f"9C2{rng.getrandbits(56):014X}",
                **dict(zip(("make", "model"), rng.choice(MODELS))), "year_manufacture": rng.randint(2012, 2026),
                "engine_cc": rng.choice([110, 125, 150, 160, 250]), "plate_category": "aluguel",
                "plate_colour": "vermelha", "created_at": now, "updated_at": now} for i in ids])
            db.session.execute(insert(Permit), [{
                "id": i, "municipality_id": mid, "number": f"{i:05d}", "kind": "alvara",
                "holder_operator_id": i, "vehicle_id": i, "ponto_id": rng.choice(ponto_ids),
                "issued_on": day(today - timedelta(days=900), 800), "valid_from": day(today - timedelta(days=300), 300),
                "valid_until": day(today + timedelta(days=300), 400), "status": rng.choice(STATUSES),
                "status_changed_at": now, "issqn_status": rng.choice(["em_dia"] * 8 + ["atrasado", "isento"]),
                "created_at": now, "updated_at": now} for i in ids])
            db.session.commit()
        if credentials:
            _credentials(muni.id, today)
        db.session.execute(text("ANALYZE"))
        db.session.commit()
        return mid


def _credentials(mid, today):
    """A crachá signed with the municipality's key for every active permit still valid, and the
    status list the operations leave: each permit's status, then each crachá's 'active'."""
    from flask import current_app

    from server.modules.credentials import keys as keystore
    from server.modules.credentials import operations as credentials
    from server.modules.credentials import signing
    from server.modules.credentials.codec import Body, encode_body, make_url_payload
    from server.modules.credentials.models import Credential
    from server.modules.registry.models import Municipality, Permit

    muni = db.session.get(Municipality, mid)
    permits = db.session.query(Permit.id, Permit.number, Permit.status, Permit.valid_until,
                               Permit.holder_operator_id).filter_by(municipality_id=mid).order_by(Permit.id).all()
    # Before the key: its creation appends what the list lacks one row at a time (onboarding).
    credentials.append_statuses(mid, [("permit", p.number, p.status) for p in permits])
    db.session.commit()
    key = credentials.active_key(muni) or credentials.create_key(muni)
    private, base_url = keystore.load_private_key(key), current_app.config["PUBLIC_BASE_URL"]
    rows, serial, now = [], 0, datetime.now(timezone.utc)
    for p in permits:
        if p.status != "ativo" or p.valid_until < today:
            continue
        serial += 1
        body = encode_body(Body(kid=key.kid, ibge_code=int(muni.ibge_code), serial=serial,
                                expires_on=p.valid_until, permit_number=p.number))
        rows.append({"municipality_id": mid, "serial": serial, "permit_id": p.id, "operator_id": p.holder_operator_id,
                     "issuer_key_id": key.id, "permit_number": p.number, "issued_at": now,
                     "expires_on": p.valid_until, "status": "active",
                     "payload": make_url_payload(body, signing.sign(private, body), base_url)})
    for start in range(0, len(rows), BATCH):
        db.session.execute(insert(Credential), rows[start:start + BATCH])
    credentials.append_statuses(mid, [("credential", r["serial"], "active") for r in rows])
    db.session.commit()
