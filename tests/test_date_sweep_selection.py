"""The date sweep sees every test whose data depends on today (issue 35): a bomb planted in a test
that only asks for the demo set, whose own body never reads the clock, goes off in the sweep.
Before, the sweep picked tests by the words of their own body and ran this one never."""
import os
import subprocess
from pathlib import Path

import pytest

import clock_words

ROOT = Path(__file__).resolve().parent.parent

# A hard-coded year against data dated from today: the demo's lapsed Nortelândia permit ended 20
# days before the demo's day, so this passed in 2026 and goes off at the sweep's moment in 2028
# (what the test below asserts holds whatever the real date is: the sweep's clock is faked).
PLANTED_BOMB = '''
from server.modules.registry.models import Municipality, Permit


def test_planted_bomb(app, demo):
    with app.app_context():
        m = Municipality.query.filter_by(slug="nortelandia").one()
        lapsed = Permit.query.filter_by(municipality_id=m.id, status="vencido").one()
        assert lapsed.valid_until.year <= 2026
'''
# A test the old selection already swept (its body reads the clock), so that the sweep has
# something to run whichever selection it uses: only the bomb tells the two apart.
PLANTED_CLOCK_READER = '''
from server.core.clock import local_today


def test_reads_the_clock():
    assert local_today().year >= 2026
'''


def test_a_test_that_only_uses_the_demo_set_is_date_sensitive():
    assert not clock_words.reads_the_clock(PLANTED_BOMB)  # what the sweep looked for before
    assert clock_words.source_is_date_sensitive(PLANTED_BOMB)
    assert not clock_words.source_is_date_sensitive("def test_x(app):\n    assert 1 + 1 == 2\n")
    assert clock_words.fixture_is_date_relative("demo", [])
    assert not clock_words.fixture_is_date_relative("client", [])


def test_the_sweep_fails_on_a_bomb_planted_in_a_demo_test(tmp_path):
    (tmp_path / "test_planted.py").write_text(PLANTED_BOMB, encoding="utf-8")
    (tmp_path / "test_clock_reader.py").write_text(PLANTED_CLOCK_READER, encoding="utf-8")
    # The planted files sit outside tests/: tests/conftest.py (fixtures and the `calendar` marking)
    # is loaded as a plugin, as the sweep loads it for tests/.
    env = {**os.environ, "MOMENTS": "2028-01-01 04:30:00", "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests'}",
           "PYTEST_ADDOPTS": f"-p conftest --rootdir {ROOT} -c {ROOT / 'pyproject.toml'}"}
    env.pop("MOTOFISCAL_TEST_DATABASE_URL", None)
    run = subprocess.run([str(ROOT / "tools" / "date-sweep"), str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode != 0, out[-3000:]
    assert "FAILED ::test_planted_bomb - assert 2027 <= 2026" in out, out[-3000:]
    assert "1 failed, 1 passed" in out, out[-3000:]


class _Item:
    """What clock_words.swept reads of a collected pytest item: its markers and its function."""
    function = callspec = None

    def __init__(self, unswept):
        self.unswept = unswept

    def get_closest_marker(self, name):
        return pytest.mark.unswept("generated input").mark if name == "unswept" and self.unswept else None


def test_a_test_marked_unswept_stays_in_the_day_run_only():
    assert clock_words.swept(_Item(unswept=False))
    assert not clock_words.swept(_Item(unswept=True))
