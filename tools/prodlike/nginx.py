"""nginx with the guide's configuration (docs/operations.md, "Several app servers", the block
marked `ops-run: nginx`), changed only where a machine's differ: the upstream servers' addresses,
the listening address and port, and the certificate's paths (a self-signed one for localhost made
here). Everything else — keepalive, body size, headers, proxy_next_upstream — is the guide's."""
import datetime
import getpass
import ipaddress
import os
import re
import shutil
import subprocess
from pathlib import Path

from . import opsdoc

_UPSTREAM_SERVER = re.compile(r"^(\s*server\s+)\S+:\d+(\s)", re.M)
_LISTEN = re.compile(r"^(\s*listen\s+)443(\s)", re.M)
_CERT = re.compile(r"^(\s*ssl_certificate\s+)\S+;", re.M)
_CERT_KEY = re.compile(r"^(\s*ssl_certificate_key\s+)\S+;", re.M)


def binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def site_config(upstreams, port, cert, key) -> str:
    """The guide's block for this machine; stops when the guide's block no longer has a part
    this replaces (then this file follows the guide)."""
    text = opsdoc.block("nginx")
    if len(_UPSTREAM_SERVER.findall(text)) != len(upstreams):
        raise ValueError(f"the guide's nginx block names {len(_UPSTREAM_SERVER.findall(text))} upstream servers, "
                         f"not {len(upstreams)}")
    addresses = iter(upstreams)
    text = _UPSTREAM_SERVER.sub(lambda m: f"{m.group(1)}{next(addresses)}{m.group(2)}", text)
    for pattern, value in ((_LISTEN, f"127.0.0.1:{port}"), (_CERT, f"{cert};"), (_CERT_KEY, f"{key};")):
        text, count = pattern.subn(lambda m: m.group(1) + value + (m.group(2) if m.lastindex == 2 else ""), text)
        if count != 1:
            raise ValueError(f"the guide's nginx block: expected one line matching {pattern.pattern!r}")
    return text


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, valid for a week (cryptography, as the app uses)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=7))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "fullchain.pem", folder / "privkey.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


def main_config(folder: Path, site: Path) -> str:
    """The server's own frame around the guide's block (what /etc/nginx/nginx.conf gives it on a
    real machine): files in `folder`, an access log naming the upstream that answered."""
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # As root, workers would run as nobody and could not write the temporary folders here.
    user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} warn;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '$request_method $request_uri $status $upstream_addr';
    access_log {folder / 'access.log'} upstreams;
{temp}
    include {site};
}}
"""


def start(folder: Path, upstreams, port) -> tuple[subprocess.Popen, Path]:
    """nginx in the foreground, its files in `folder`; returns the process and the certificate
    clients must trust."""
    program = binary()
    if program is None:
        raise RuntimeError("nginx not installed: `make prod-deps` installs Debian's nginx")
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = self_signed(folder)
    site = folder / "motofiscal.conf"
    site.write_text(site_config(upstreams, port, cert, key))
    conf = folder / "nginx.conf"
    conf.write_text(main_config(folder, site))
    checked = subprocess.run([program, "-t", "-q", "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)],
                             capture_output=True, text=True)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t refused {conf}: {checked.stderr}")
    process = subprocess.Popen([program, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)],
                               start_new_session=True)
    return process, cert
