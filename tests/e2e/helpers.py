"""Small helpers shared by the browser tests."""
import functools
import os
from pathlib import Path

# Screenshots are for a person to look at: `make shots` (MOTOFISCAL_SCREENSHOTS=<directory>) saves
# them. `make test` does not — nobody looks at a CI machine's /tmp, and each one cost the browser a
# (full-page) render and a PNG encoding. Screenshots that a test reads (a QR decoded from the
# screen) are taken by the test itself, always.
SHOTS_WANTED = bool(os.environ.get("MOTOFISCAL_SCREENSHOTS"))
SHOTS = Path(os.environ["MOTOFISCAL_SCREENSHOTS"] if SHOTS_WANTED else "/tmp/motofiscal-shots")
# The phone's screen density: 2 (a phone's) when a person will look at the screenshots, 1 otherwise.
# Chromium renders in software here (no GPU): twice the density is four times the pixels to raster,
# about a fifth of the browser tests' CPU (test_backoffice_accessibility.py: 57.8 → 46.4 CPU-s).
# Layout, touch targets and what axe reads are in CSS pixels, the same at both densities. A screen
# that another phone films (an operator's crachá) keeps 2 in its own test: the camera reads pixels.
SCREEN_SCALE = 2 if SHOTS_WANTED else 1
VIEWPORTS = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 800}}


def wait_for_service_worker(page):
    """Wait until the page is controlled by the service worker (the shell is precached then)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)


def shell_version(page):
    """Version of the worker controlling the page, asked the way the app asks it."""
    return page.evaluate("""() => new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data.version);
        navigator.serviceWorker.controller.postMessage({ type: 'GET_VERSION' }, [channel.port2]);
    })""")


# axe-core comes from npm (tests/e2e/package.json, installed by `make test-deps`); it is evaluated
# through the DevTools protocol, so the app's strict CSP stays on while it runs.
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


# A rule whose every check is of minor or moderate impact can never report a serious or critical
# node (a node's impact is the highest of its failed checks'): such rules (landmarks, heading order,
# region…, 25 of axe 4.14's 96) are left out of the run, read from axe's own rule data so that a
# new axe version decides for itself. Nothing serious goes unchecked; the run is shorter.
RUN_SERIOUS_RULES = """() => {
    const mild = (check) => ['minor', 'moderate'].includes(axe._audit.data.checks[check.id]?.impact);
    const off = axe._audit.rules.filter((rule) => [...rule.any, ...rule.all, ...rule.none].every(mild));
    return axe.run(document, {resultTypes: ['violations'],
                              rules: Object.fromEntries(off.map((rule) => [rule.id, {enabled: false}]))});
}"""


@functools.cache
def _axe_source():
    assert AXE.is_file(), f"{AXE} is missing: run `make test-deps` (npm ci in tests/e2e)"
    return AXE.read_text(encoding="utf-8") + "\n;undefined"


def serious_violations(page):
    """Run axe on the page as it is now; return 'rule: target — summary' for serious/critical ones."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    results = page.evaluate(RUN_SERIOUS_RULES)
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            if (node.get("impact") or violation.get("impact")) in ("serious", "critical"):
                summary = (node.get("failureSummary") or "").strip().splitlines()[-1:]
                found.append(f"{violation['id']}: {' '.join(map(str, node['target']))} — {' '.join(summary)}")
    return found


def backoffice_login(page, base, username):
    """Log in to the back office as a demo user."""
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "demo-motofiscal")
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")


def screen_problems(page):
    """What a user would hit on the page as it stands: serious axe violations, and a page wider
    than its window (sideways scrolling, on a phone above all)."""
    found = serious_violations(page)
    width, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if width > window:
        found.append(f"page is {width} px wide in a {window} px window (sideways scrolling)")
    return found


def save_png(name, png):
    """Keep PNG bytes (a screenshot a test read, a rendered PDF page) as SHOTS/<name>.png, when
    screenshots are wanted."""
    if SHOTS_WANTED:
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / f"{name}.png").write_bytes(png)


def save_shot(target, name, **options):
    """Save a screenshot of a page or an element as SHOTS/<name>.png, when screenshots are wanted
    (only then is it taken)."""
    if SHOTS_WANTED:
        save_png(name, target.screenshot(**options))


def check_backoffice_screen(prefix, page, name, size, problems):
    """Screenshot the whole page as SHOTS/<prefix>-<name>-<size>.png and note in problems what a
    user would hit: serious axe violations and a page wider than its window."""
    save_shot(page, f"{prefix}-{name}-{size}", full_page=True)
    found = screen_problems(page)
    if found:
        problems[f"{name} {size}"] = found
