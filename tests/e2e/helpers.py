"""Small helpers shared by the browser tests."""
from pathlib import Path


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


def serious_violations(page):
    """Run axe on the page as it is now; return 'rule: target — summary' for serious/critical ones."""
    assert AXE.is_file(), f"{AXE} is missing: run `make test-deps` (npm ci in tests/e2e)"
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            if (node.get("impact") or violation.get("impact")) in ("serious", "critical"):
                summary = (node.get("failureSummary") or "").strip().splitlines()[-1:]
                found.append(f"{violation['id']}: {' '.join(map(str, node['target']))} — {' '.join(summary)}")
    return found
