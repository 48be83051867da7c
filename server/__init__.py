"""Motofiscal server: registry, rule packs, signed crachás and the field app, behind one factory."""
import os

from flask import Flask

from .config import load_config


def create_app(test_config=None):
    """Build the application; `test_config` overrides every other configuration source."""
    # MOTOFISCAL_INSTANCE_PATH: the instance folder elsewhere than ./instance (absolute path), e.g.
    # one folder shared by several app servers (docs/operations.md, "Several app servers").
    app = Flask(__name__, instance_path=os.environ.get("MOTOFISCAL_INSTANCE_PATH") or None,
                instance_relative_config=True)
    load_config(app, test_config)

    from .extensions import init_extensions
    from .core import errors, security, proxy, compressed, request_encoding, transaction
    from .modules.accounts import identity, sessions
    from .blueprints import register_blueprints
    from .cli import register_cli
    from .subscriptions import connect_subscribers
    from .daily_tasks import register_daily_tasks

    init_extensions(app)
    transaction.init_app(app)  # first registered, so its after_request runs last
    errors.init_app(app)
    security.init_app(app)
    identity.init_app(app)
    sessions.init_app(app)
    compressed.init_app(app)
    register_blueprints(app)
    connect_subscribers()
    register_daily_tasks()
    register_cli(app)
    request_encoding.init_app(app)
    proxy.init_app(app)
    from .core import health
    health.init_app(app)

    return app
