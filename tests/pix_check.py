"""Independent checks of a PIX BR Code for the tests (issue 37): the npm package pix-utils
(tests/e2e/package.json, installed by `make test-deps`) parses it — EMV structure, the CRC16 of
field 63, the PIX fields — and the PyPI package crccheck computes CRC-16/CCITT-FALSE again.
Neither is the project's code."""
import json
import os
import subprocess
from pathlib import Path

NODE_MODULES = Path(__file__).resolve().parent / "e2e" / "node_modules"


def pix_utils_parse(payload):
    """pix-utils' object for the payload, or {"error": its message}."""
    assert (NODE_MODULES / "pix-utils").is_dir(), "pix-utils missing: run `make test-deps`"
    script = ("const {parsePix, hasError} = require('pix-utils');"
              "const pix = parsePix(process.argv[1]);"
              "console.log(JSON.stringify(hasError(pix) ? {error: pix.message || 'error'} : pix));")
    out = subprocess.run(["node", "-e", script, payload], capture_output=True, text=True, check=True,
                         env={**os.environ, "NODE_PATH": str(NODE_MODULES)})
    return json.loads(out.stdout)


def crc_ok(payload):
    from crccheck.crc import Crc16CcittFalse
    return f"{Crc16CcittFalse.calc(payload[:-4].encode()):04X}" == payload[-4:]
