"""Composed rules for a municipality: packs + file defaults + what the municipality configured.

The municipality's own values live in the database (UnitValue rows; settings["rules"] for decree
amounts, deadlines, periods and veto outcomes) and override the defaults in
shared_rules/config/<slug>.json. The composed result is cached per configuration fingerprint.
"""
import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import current_app, has_app_context

from ...core.errors import ApiError
from ...rules import UnknownMunicipality, load_municipality
from ...rules.compose import CONFIG_DIR, compose, read_packs
from ..registry.models import UnitValue

RULE_SETTING_KEYS = ("decree_amounts", "deadlines", "periods", "options")


@lru_cache(maxsize=32)
def file_defaults(slug):
    # The file ships with the code: read once per process, not on every request.
    path = CONFIG_DIR / f"{slug}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def config_overrides(municipality):
    """The municipality's configuration as a config_overrides mapping (SPEC §6)."""
    defaults = file_defaults(municipality.slug).get("unit_values", {})
    units = {unit: {row["valid_from"]: row for row in rows} for unit, rows in defaults.items()}
    for row in UnitValue.query.filter_by(municipality_id=municipality.id).order_by(UnitValue.valid_from):
        units.setdefault(row.unit, {})[row.valid_from.isoformat()] = {
            "valid_from": row.valid_from.isoformat(), "brl": float(row.value_brl), "source": row.source}
    overrides = {"unit_values": {unit: [rows[k] for k in sorted(rows)] for unit, rows in units.items()}}
    rules_settings = (municipality.settings or {}).get("rules", {})
    for key in RULE_SETTING_KEYS:
        if rules_settings.get(key):
            overrides[key] = rules_settings[key]
    return overrides


# The pack id of the federal layer; a municipality whose law has no pack yet runs on it alone.
FEDERAL_PACK = "federal-base"


def federal_only(municipality):
    """True when no municipal law pack applies: only the federal layer (CTB, Lei 12.009/2009…)."""
    return list(municipality.regimes or []) == [FEDERAL_PACK]


def published_dirs():
    """Folders of packs published beside the shipped ones (config RULES_EXTRA_PACKS_DIR: an
    amendment or a law encoded after the release, checked with `flask rules lint`), and a
    fingerprint of their files, so a newly published pack is served at once."""
    folder = current_app.config.get("RULES_EXTRA_PACKS_DIR") if has_app_context() else None
    if not folder or not Path(folder).is_dir():
        return (), ""
    stats = sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in Path(folder).glob("*.json"))
    return (str(folder),), hashlib.sha256(json.dumps(stats).encode()).hexdigest()


@lru_cache(maxsize=32)
def _composed(slug, fingerprint, overrides_json, federal_only=False, extra_dirs=(), extra_fingerprint=""):
    if federal_only:  # no municipal law pack yet (onboarding): the federal layer alone
        config = {"municipality": slug, **json.loads(overrides_json)}
        return compose([p for _, p in read_packs(extra_dirs=extra_dirs) if p.get("kind") == "federal"], config)
    return load_municipality(slug, config_overrides=json.loads(overrides_json), extra_dirs=extra_dirs)


def composed_for(municipality):
    overrides = config_overrides(municipality)
    overrides_json = json.dumps(overrides, sort_keys=True, ensure_ascii=False)
    fingerprint = hashlib.sha256(overrides_json.encode()).hexdigest()
    extra_dirs, extra_fingerprint = published_dirs()
    try:
        return _composed(municipality.slug, fingerprint, overrides_json, federal_only(municipality),
                         extra_dirs, extra_fingerprint)
    except UnknownMunicipality as exc:
        raise ApiError(409, "no_rule_pack", "Não há pacote de regras para este município.") from exc
