"""Chromium's own verdict on the shell: installable as an app (manifest, icons, service worker)."""
from .helpers import wait_for_service_worker


def test_chromium_finds_the_app_installable(page, context, live_server):
    page.goto(f"{live_server}/app/")
    wait_for_service_worker(page)
    cdp = context.new_cdp_session(page)
    errors = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # Playwright's browser contexts are incognito profiles, which Chromium never installs from;
    # every other reason (manifest, icons, service worker, scope) must be absent.
    assert [e for e in errors if e != "in-incognito"] == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/app/manifest.webmanifest")
    assert not manifest.get("errors"), manifest.get("errors")
