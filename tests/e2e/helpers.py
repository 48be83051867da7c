"""Small helpers shared by the browser tests."""


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
