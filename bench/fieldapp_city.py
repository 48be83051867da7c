"""bench/fieldapp_perf.py's city and its phone data: the app over a city seeded by
tests/large_registry.py, the permit the filmed crachá names, one-change deltas made on the server,
and the page-side probes of what the phone holds (HELD) and of one "Atualizar dados" (SYNC)."""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fieldapp_harness import on_fiscal_home  # noqa: E402

USERNAME = "fiscal.bench"

# The rows the phone holds, read back as the screens read them; and the time loadField takes
# (the idle read: short transactions and index slices at background priority).
HELD = """async () => {
  const f = await import('./js/fiscal/field-data.js');
  const t = performance.now();
  const data = await f.loadField();
  return { permits: data.index.size, ms: performance.now() - t };
}"""

# One "Atualizar dados" (download()), and the field step's measure (store, merge, index).
SYNC = """async () => {
  const f = await import('./js/fiscal/field-data.js');
  await f.loadField();
  const { steps } = await f.download();
  const m = performance.getEntriesByName('field-sync').pop();
  return { step: steps.field, ms: m.duration, store: m.detail.store, snapshot: m.detail.snapshot };
}"""


def held_permits(context, url):
    return on_fiscal_home(context, url, HELD)



def city_app(tmp, permits):
    """The app over a city of `permits` permits (tests/large_registry.py, crachás signed)."""
    from flask_migrate import upgrade

    from large_registry import populate
    from server import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / f'city-{permits}.sqlite3'}",
                      "FIELDAPP_ROOT": os.environ.get("BENCH_PWA_ROOT", str(ROOT / "pwa"))})
    app.instance_path = str(tmp)
    with app.app_context():
        upgrade(directory=str(ROOT / "migrations"))
    populate(app, permits, credentials=True, username=USERNAME)
    return app


def suspend_one(app, skip):
    """A one-change delta: the next active permit (not the filmed crachá's) suspended."""
    from server.extensions import db
    from server.modules.permits.operations import change_permit_status
    from server.modules.registry.models import Permit

    with app.app_context():
        permit = (Permit.query.filter(Permit.status == "ativo", Permit.number.notin_(skip))
                  .order_by(Permit.id.desc()).first())
        change_permit_status(permit, "suspend", "Bancada")
        db.session.commit()
        skip.add(permit.number)


def crachá_number(app):
    """The permit number of the crachá filmed (the lowest active, valid one: crachá_png's)."""
    from server.core.clock import local_today
    from server.modules.registry.models import Permit

    with app.app_context():
        return (Permit.query.filter_by(status="ativo").filter(Permit.valid_until >= local_today())
                .order_by(Permit.id).first().number)

