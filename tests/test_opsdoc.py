"""The guide's runnable blocks (docs/operations.md, read by tools/prodlike/opsdoc.py): each one
the production topology runs is there, uses only names the guide defines, and the guide's nginx
block becomes this machine's by changing addresses, port and certificate only. No database: the
run itself is tests/test_prod_like.py."""
import re

import pytest

from tools.prodlike import nginx, opsdoc

RUN_BY_PROD_LIKE = {"database", "bucket", "nginx", "municipality", "backup", "restore"}
# /etc/motofiscal.env's names (docs/operations.md, "Several app servers") that blocks may read.
ENV_FILE = {"DATABASE_URL", "PUBLIC_BASE_URL", "STORAGE_URL", "MOTOFISCAL_KEY_PASSPHRASE"}


def test_every_block_the_topology_runs_is_marked_in_the_guide():
    assert RUN_BY_PROD_LIKE <= set(opsdoc.blocks())


@pytest.mark.parametrize("name", sorted(RUN_BY_PROD_LIKE - {"nginx"}))
def test_a_block_uses_only_names_the_guide_defines(name):
    body = opsdoc.block(name)
    assigned = set(re.findall(r"(?:^|\s)([A-Z][A-Z0-9_]*)=", body))
    used = set(re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", body))
    unknown = used - set(opsdoc.setting_names()) - ENV_FILE - assigned
    assert not unknown, f"block {name} uses {unknown}: define them in the guide's settings block"


def test_the_settings_block_names_the_roles_and_the_database():
    assert {"DB_HOST", "DB_NAME", "DB_OWNER", "DB_APP_ROLE", "BACKUP_DIR"} <= set(opsdoc.setting_names())


def test_a_missing_setting_stops_the_block_before_it_runs():
    with pytest.raises(ValueError, match="DB_OWNER"):
        opsdoc.run("bucket", {"DB_HOST": "127.0.0.1"})


def test_a_step_before_a_line_the_guide_no_longer_has_is_refused():
    env = {name: "x" for name in opsdoc.setting_names()}
    with pytest.raises(ValueError, match="no longer has"):
        opsdoc.run("bucket", env, before={"a command the guide never had": "true"})


def test_the_guides_nginx_block_changes_only_addresses_port_and_certificate():
    guide = opsdoc.block("nginx")
    site = nginx.site_config(["127.0.0.1:8101", "127.0.0.1:8102"], 8443, "/tmp/c.pem", "/tmp/k.pem")
    assert "server 127.0.0.1:8101 max_fails=3" in site and "server 127.0.0.1:8102 max_fails=3" in site
    assert "listen 127.0.0.1:8443 ssl http2;" in site
    assert "ssl_certificate     /tmp/c.pem;" in site and "ssl_certificate_key /tmp/k.pem;" in site
    changed = [line for line in site.splitlines() if line not in guide.splitlines()]
    assert len(changed) == 5  # two upstream servers, listen, certificate, key: nothing else
    assert "10.0.0." not in site and "443 ssl" not in site.replace("8443 ssl", "")
