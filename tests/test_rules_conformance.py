"""Runs every case of every file in shared_rules/vectors/ through the Python evaluator, and checks
that the JS evaluator prints the same JSON for each (the Node runner is tests/js/)."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from server.rules.vectors import cases_of, load_vector_files, matches, run_case

ROOT = Path(__file__).resolve().parents[1]
FILES = load_vector_files(ROOT)
CASES = [(name, i, case) for name, doc in FILES for i, case in enumerate(cases_of(doc))]


def test_vector_files_exist():
    assert any(name.startswith("engine-") for name, _ in FILES)


@pytest.mark.parametrize("name,index,case", CASES,
                         ids=[f"{n}#{i}:{c['name'][:60]}" for n, i, c in CASES])
def test_vector(name, index, case):
    actual = run_case(ROOT, case)
    problem = matches(case["expected"], actual)
    assert problem is None, f"{name} case {index} ({case['name']}): {problem}"


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed; the Node runner covers JS")
def test_python_and_js_print_identical_json():
    """Full outputs (not only the expected subset) must be identical, key order included."""
    script = ROOT / "tests" / "js" / "dump_vectors.mjs"
    out = subprocess.run([NODE, str(script)], cwd=ROOT, capture_output=True, text=True, check=True)
    js = json.loads(out.stdout)
    differing = []
    for name, i, case in CASES:
        py = json.dumps(run_case(ROOT, case), ensure_ascii=False, separators=(",", ":"))
        theirs = js[f"{name}#{i}"]
        if py != theirs:
            differing.append(f"{name}#{i} {case['name']}\n  py: {py[:400]}\n  js: {theirs[:400]}")
    assert not differing, "\n".join(differing[:10])



def test_engine_vectors_exercise_every_entry_of_the_test_packs():
    from server.rules.vectors import coverage
    report = coverage(ROOT)
    fixture = [label for label in report if "tests/fixtures/rules/" in label]
    assert fixture
    for label in fixture:
        assert report[label] == {"requirements": [], "infractions": []}, (label, report[label])
