"""Benchmark: applying a one-change field-data delta on the phone, in Chromium with the CPU slowed
4× (CDP Emulation.setCPUThrottlingRate 4, a mid-range phone). Issue 24 target: ≤ 30 ms.

The phone holds 10,000 permits, 10,000 operators and 10,000 vehicles (stored by the app's own
`field-store.js` from a snapshot, untimed). Timed, in the page (`performance.now()`), each run a
new cursor:

- apply: `storeAnswer(delta)` — decode the `format=packed2` answer of one suspended permit (made
  by the server's own encoder, `fieldsync/field_codec.py`) and write its row and the new cursor
  in one IndexedDB transaction, resolved once durable;
- before issue 24, for reference on the same page: the whole extract as one record —
  `get('reference', …)` + `mergeField` + `put` (the previous app's path);
- floor: one small record written in its own transaction (IndexedDB's fixed cost here);
- and, 3 times, reading the whole extract back (`readField`, what `loadField` does once after a
  download, off this path).

Load (os.getloadavg) before and after. Results: docs/benchmarks/field-delta.md.

Usage: .venv/bin/python bench/field_delta_apply.py [runs=15]
"""
import os
import statistics
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.e2e.fiscal_helpers import StoppableServer  # noqa: E402

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
PERMITS = 10_000
OUT = ROOT / "docs" / "benchmarks" / "field-delta.md"

# A registry like bench/field_data.py's, made in the page: rows as the decoder gives them.
SETUP = """async ({ permits }) => {
  const { storeAnswer } = await import('./js/fiscal/field-store.js');
  const { put } = await import('./js/data/db.js');
  const day = (n) => new Date(Date.UTC(2020, 0, 1) + n * 86400000).toISOString().slice(0, 10);
  const rows = (make) => Array.from({ length: permits }, (_, i) => make(i + 1));
  const snapshot = {
    cursor: 1, snapshot: true, municipality: { slug: 'sapezal' }, photo_url: '/api/v1/field/photos/{id}', removed: {},
    permits: rows((id) => ({ id, number: String(id).padStart(5, '0'), status: 'ativo', issued_on: day(id % 900),
      valid_until: day(2000 + (id % 400)), holder_operator_id: id, vehicle_id: id, ponto_id: 1 + (id % 40) })),
    operators: rows((id) => ({ id, name: `Fulano ${id} da Silva`, cnh: String(10 ** 10 + id * 7919), photo: 1,
      cnh_category: 'AB', cnh_first_issue_date: day(id % 3000), birth_date: day(-9000 + (id % 8000)) })),
    vehicles: rows((id) => ({ id, plate: `ABC${String(id).padStart(4, '0')}`, make: 'Honda', model: 'CG 160 Fan',
      year_manufacture: 2015 + (id % 10), engine_cc: 160, plate_category: 'aluguel' })),
    pontos: Array.from({ length: 40 }, (_, i) => ({ id: i + 1, name: `Ponto ${i + 1}` })),
  };
  await storeAnswer(snapshot, { etag: 's', fetchedAt: new Date().toISOString() });
  // The previous app's single record, for the reference path.
  await put('reference', { data: { cursor: 1, ...snapshot }, etag: 's' }, 'bench-old-field');
  return true;
}"""

RUN = """async ({ delta, runs }) => {
  const { storeAnswer } = await import('./js/fiscal/field-store.js');
  const { mergeField } = await import('./js/fiscal/field-merge.js');
  const { get, put } = await import('./js/data/db.js');
  const apply = [], old = [], floor = [];
  for (let i = 0; i < runs; i += 1) {
    const answer = { ...delta, cursor: delta.cursor + i };
    let t = performance.now();
    await put('meta', { at: i }, 'bench-floor');
    floor.push(performance.now() - t);
    t = performance.now();
    await storeAnswer(answer, { etag: `d${i}`, fetchedAt: new Date().toISOString() });
    apply.push(performance.now() - t);
    t = performance.now();
    const saved = await get('reference', 'bench-old-field');
    await put('reference', { data: mergeField(saved.data, answer), etag: `d${i}` }, 'bench-old-field');
    old.push(performance.now() - t);
  }
  const { readField } = await import('./js/fiscal/field-store.js');
  const reads = [], oldReads = [];
  for (let i = 0; i < 3; i += 1) {
    let t = performance.now();
    await readField();
    reads.push(performance.now() - t);
    t = performance.now();
    await get('reference', 'bench-old-field');
    oldReads.push(performance.now() - t);
  }
  const { readRow } = await import('./js/fiscal/field-store.js');
  const stored = await readRow('permits', delta.permits.id.delta[0]);
  const meta = await get('reference', 'field');
  return { apply, old, floor, reads, oldReads, status: stored.status, cursor: meta.data.cursor };
}"""


def packed_delta():
    """The server's own encoding of a delta in which one permit was suspended."""
    from server.modules.fieldsync.field_codec import pack_table
    permit = {"id": 4321, "number": "04321", "status": "suspenso", "issued_on": "2022-05-02",
              "valid_until": "2027-01-31", "holder_operator_id": 4321, "vehicle_id": 4321, "ponto_id": 12}
    empty = {"operator": [], "vehicle": [], "ponto": [], "penalty": []}
    out = {"cursor": 2, "snapshot": False, "format": "packed2", "permits": pack_table("permit", [permit], "packed2"),
           "removed": {k: [] for k in ("permits", "operators", "vehicles", "pontos", "penalties")},
           "rules": None, "tariff": None, "calendar": None}
    out.update({kind + "s" if kind != "penalty" else "penalties": pack_table(kind, rows, "packed2") for kind, rows in empty.items()})
    return out


def stats(values):
    values = sorted(values)
    return statistics.median(values), values[0], values[-1]


def main():
    from playwright.sync_api import sync_playwright

    from server import create_app

    tmp = Path(tempfile.mkdtemp(prefix="bench_delta_"))
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'b.sqlite3'}",
                      "FIELDAPP_ROOT": str(ROOT / "pwa")})
    app.instance_path = str(tmp)
    server = StoppableServer(app).start()
    delta = packed_delta()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=PHONE, service_workers="block")
            page = context.new_page()
            page.goto(f"{server.url}/app/")
            page.wait_for_selector("#go-operator")
            page.evaluate(SETUP, {"permits": PERMITS})
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            load_before = os.getloadavg()
            result = page.evaluate(RUN, {"delta": delta, "runs": RUNS})
            load_after = os.getloadavg()
            browser.close()
    finally:
        server.stop()
    assert result["status"] == "suspenso" and result["cursor"] == delta["cursor"] + RUNS - 1, result
    apply, old, floor, reads, old_reads = (stats(result[k]) for k in ("apply", "old", "floor", "reads", "oldReads"))
    met = "met" if apply[0] <= 30 else "**missed**"
    lines = [
        "# Applying a field-data delta on the phone (`bench/field_delta_apply.py`)", "",
        f"Run {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, headless Chromium, CDP "
        f"`Emulation.setCPUThrottlingRate` 4, {PERMITS:,} permits + {PERMITS:,} operators + {PERMITS:,} vehicles "
        f"held by the phone, a delta of one suspended permit (`format=packed2`, the server's encoder), "
        f"{RUNS} runs. Shared 2-core machine: load average (1/5/15 min) "
        f"{'/'.join(f'{x:.2f}' for x in load_before)} before, {'/'.join(f'{x:.2f}' for x in load_after)} after.", "",
        "| What | median ms | range | target | |", "|---|---|---|---|---|",
        f"| Apply the delta: decode + its row and the cursor in one IndexedDB transaction (`field-store.js`) "
        f"| {apply[0]:.1f} | {apply[1]:.1f}–{apply[2]:.1f} | ≤ 30 | {met} |",
        f"| Before issue 24: the whole extract as one record (get + `mergeField` + put) "
        f"| {old[0]:.1f} | {old[1]:.1f}–{old[2]:.1f} | — | |",
        f"| Floor: one small record put in its own transaction | {floor[0]:.1f} | {floor[1]:.1f}–{floor[2]:.1f} | — | |",
        "", f"Ratios in this run: apply ÷ floor **{apply[0] / floor[0]:.1f}**; one record ÷ apply "
            f"**{old[0] / apply[0]:.0f}×**.", "",
        f"Reading the whole extract back from the stores (`readField`, done once by `loadField` on the next "
        f"screen that needs the data after a download, not on this path): median {reads[0]:.0f} ms "
        f"({reads[1]:.0f}–{reads[2]:.0f}, 3 runs); the previous single record read the same way: median "
        f"{old_reads[0]:.0f} ms ({old_reads[1]:.0f}–{old_reads[2]:.0f}).",
    ]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
