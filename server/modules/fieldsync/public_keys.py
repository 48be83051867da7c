"""The enrolled device keys a municipality publishes for the operator's signed copy (/a/#…,
autocopy/page.js verifies the device signature in the browser)."""
from ..accounts.models import Device
from ..registry.models import Municipality


def device_keys(ibge_code):
    """The municipality's enrolled device keys, for the operator's copy page: id, key and status
    only — no device name, no fiscal. None for an unknown municipality."""
    if not (isinstance(ibge_code, str) and ibge_code.isdigit() and len(ibge_code) <= 7):
        return None
    municipality = Municipality.query.filter_by(ibge_code=f"{int(ibge_code):07d}").first()
    if municipality is None:
        return None
    rows = (Device.query.filter(Device.municipality_id == municipality.id, Device.public_key.isnot(None))
            .order_by(Device.id).all())
    return {"municipality": {"ibge": municipality.ibge_code, "name": municipality.name, "uf": municipality.uf},
            "keys": [{"device_id": d.id, "algorithm": "Ed25519", "public_key": d.public_key, "status": d.status}
                     for d in rows]}
