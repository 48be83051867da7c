"""Every blueprint of the app, registered in one place (one line per feature)."""


def register_blueprints(app):
    from . import models  # noqa: F401  (the whole schema is known before any request)
    from .modules.accounts.blueprint import bp as accounts_bp
    from .modules.accounts.api import bp as accounts_api_bp
    from .modules.backoffice.users_admin import bp as accounts_admin_bp
    from .modules.backoffice.blueprint import bp as backoffice_bp
    from .modules.fieldapp.blueprint import bp as fieldapp_bp
    from .modules.rules.blueprint import bp as rules_api_bp
    from .modules.rules.views import bp as rules_bo_bp
    from .modules.operator_portal.blueprint import bp as operator_portal_bp

    for bp in (accounts_bp, accounts_api_bp, accounts_admin_bp, backoffice_bp, fieldapp_bp, rules_api_bp, rules_bo_bp, operator_portal_bp):
        app.register_blueprint(bp)
    from .modules.credentials.blueprint import bp as credentials_bp
    app.register_blueprint(credentials_bp)
    from .modules.fieldsync.blueprint import bp as fieldsync_bp; app.register_blueprint(fieldsync_bp)  # noqa: E702
    from .modules.review.blueprint import bp as review_bp; app.register_blueprint(review_bp)  # noqa: E702
    from .modules.selection.views import bp as selection_bo_bp; app.register_blueprint(selection_bo_bp)  # noqa: E702
    from .modules.tariffs.views import bp as tariffs_bo_bp; app.register_blueprint(tariffs_bo_bp)  # noqa: E702
    from .modules.autos.blueprint import bp as autos_bp; app.register_blueprint(autos_bp)  # noqa: E702
    from .modules.onboarding.views import bp as onboarding_bp; app.register_blueprint(onboarding_bp)  # noqa: E702
    from .modules.onboarding.first_day_views import bp as first_day_bp; app.register_blueprint(first_day_bp)  # noqa: E702
    from .modules.registry_import.views import bp as registry_import_bp; app.register_blueprint(registry_import_bp)  # noqa: E702
    from .modules.lgpd.views import bp as lgpd_bp; app.register_blueprint(lgpd_bp)  # noqa: E702
    from .modules.notices.views import bp as notices_bp; app.register_blueprint(notices_bp)  # noqa: E702
    from .modules.collection.views import bp as collection_bo_bp; app.register_blueprint(collection_bo_bp)  # noqa: E702
    from .modules.traffic.views import bp as traffic_bp; app.register_blueprint(traffic_bp)  # noqa: E702
    from .core.openapi import bp as openapi_bp  # GET /api/v1/openapi.json
    app.register_blueprint(openapi_bp)
