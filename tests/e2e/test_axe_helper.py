"""The accessibility check itself: on a page made to break the rules, serious_violations reports
the serious and critical problems a user would hit (with axe's mild-only rules left out of the
run), and nothing on the same page made right."""
from .helpers import serious_violations

BROKEN = """<!doctype html><html lang="pt-BR"><head><title>x</title></head><body><main>
<h1>Teste</h1>
<p style="color:#bbb;background:#fff">Texto claro demais sobre fundo branco</p>
<input type="text">
<button></button>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
</main></body></html>"""
FIXED = """<!doctype html><html lang="pt-BR"><head><title>x</title></head><body><main>
<h1>Teste</h1>
<p style="color:#222;background:#fff">Texto legível</p>
<label>Placa <input type="text"></label>
<button>Salvar</button>
<img alt="Logotipo" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
</main></body></html>"""


def test_serious_violations_finds_what_breaks_and_passes_what_is_right(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.set_content(BROKEN)
        rules = {found.split(":", 1)[0] for found in serious_violations(page)}
        assert {"color-contrast", "label", "button-name", "image-alt"} <= rules, rules
        page.set_content(FIXED)
        assert serious_violations(page) == []
    finally:
        context.close()
