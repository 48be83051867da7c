"""Every blueprint of the app, registered in one place. Each feature builds its blueprints in its
own blueprint.py, from the route tables its views modules record (core/routes.py); the order
here is the order of the app's URL map."""


def register_blueprints(app):
    from . import models  # noqa: F401  (the whole schema is known before any request)
    from .core import openapi
    from .modules.accounts import blueprint as accounts
    from .modules.autos import blueprint as autos
    from .modules.backoffice import blueprint as backoffice
    from .modules.collection import blueprint as collection
    from .modules.credentials import blueprint as credentials
    from .modules.fieldapp import blueprint as fieldapp
    from .modules.fieldsync import blueprint as fieldsync
    from .modules.lgpd import blueprint as lgpd
    from .modules.notices import blueprint as notices
    from .modules.onboarding import blueprint as onboarding
    from .modules.operator_portal import blueprint as operator_portal
    from .modules.registry_import import blueprint as registry_import
    from .modules.review import blueprint as review
    from .modules.rules import blueprint as rules
    from .modules.selection import blueprint as selection
    from .modules.tariffs import blueprint as tariffs
    from .modules.traffic import blueprint as traffic

    for bp in (accounts.bp, accounts.api_bp, backoffice.users_admin_bp, backoffice.bp, fieldapp.bp,
               rules.bp, rules.bo_bp, operator_portal.bp, credentials.bp, fieldsync.bp, review.bp,
               selection.bp, tariffs.bp, autos.bp, onboarding.bp, onboarding.first_day_bp, registry_import.bp, lgpd.bp,
               notices.bp, collection.bp, traffic.bp,
               openapi.bp):  # GET /api/v1/openapi.json
        app.register_blueprint(bp)
