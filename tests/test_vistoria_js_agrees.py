"""One selection of vistoria items and one reading of what fails, on both sides: the field app's
vistoria-model.js (vistoriaItems, failedRequirements) must give exactly what the server's
issuance/vistoria_checklist.py gives (vistoria_items, failed_requirements) for every
municipality's composed rules, on answer vectors that pass, fail and leave items out."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.core.clock import local_today

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")


def _vectors(items):
    """All good, all bad, each item bad alone, and half the items left out."""
    good = {i["fact"]: (2 if i["input"] == "number" else True) for i in items}
    bad = {i["fact"]: (0 if i["input"] == "number" else False) for i in items}
    vectors = [{}, good, bad, {k: v for n, (k, v) in enumerate(bad.items()) if n % 2 == 0}]
    vectors += [{**good, fact: bad[fact]} for fact in good]
    return vectors


@pytest.mark.skipif(NODE is None, reason="node is not installed; the Node runner covers JS")
@pytest.mark.parametrize("slug", ["sapezal", "nortelandia", "paranatinga"])
def test_field_app_and_server_select_the_same_items_and_failures(app, demo, slug):
    from server.modules.issuance.vistoria_checklist import failed_requirements, vistoria_items
    from server.modules.registry.models import Municipality
    from server.modules.rules.service import composed_for

    day = local_today()
    with app.app_context():
        municipality = Municipality.query.filter_by(slug=slug).one()
        composed = composed_for(municipality)
        items = vistoria_items(municipality, day)
        vectors = _vectors(items)
        server = {"items": [i["fact"] for i in items],
                  "failed": [[f["requirement"] for f in failed_requirements(composed, day, v)] for v in vectors]}
        document = composed.to_json()
    assert len(server["items"]) >= 10  # the packs ask about the vehicle and its equipment
    assert any(server["failed"]) and not server["failed"][0]  # answers decide; none given, none fails
    out = subprocess.run([NODE, str(ROOT / "tests" / "js" / "vistoria_dump.mjs")], cwd=ROOT, check=True,
                         capture_output=True, text=True,
                         input=json.dumps({"rules": document, "date": day.isoformat(), "vectors": vectors}))
    assert json.loads(out.stdout) == server
