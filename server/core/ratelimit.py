"""Limits on guessing: back-office login, API tokens (fiscais) and operator activation.

Three buckets, each counting only *failed* attempts (a wrong password, an invalid code), so
people who type their password right are never slowed by anyone:

1. per client address (LOGIN_RATE_LIMIT, shared by the three endpoints): one machine cannot
   guess fast, whatever accounts it tries;
2. per account *from one address* (LOGIN_ACCOUNT_ADDRESS_RATE_LIMIT, minutes and an hour):
   the long lockout. Keyed on account + address, so it locks out only the guesser's address:
   an attacker who knows a user name cannot use it to lock that user out of their own phone or
   office;
3. per account from every address (LOGIN_ACCOUNT_RATE_LIMIT, a one-minute window): caps a
   distributed guess (botnet) at a few dozen tries a minute per account. An attacker can keep a
   user slowed only while attacking, and the user is free again a minute after it stops: a
   short window is the price of not handing out long lockouts.

Behind a reverse proxy every request would share the proxy's address; `TRUSTED_PROXIES`
(core.proxy) makes request.remote_addr the real client's. For operator activation the "account"
is the pair (municipality, code) sent (normalized), and only a refused code counts against it:
a guesser is held back by the address bucket, nothing keyed on the municipality alone exists, so
random codes never lock an operator with a valid code out (operator_portal/operations.CODE_LENGTH
states the codes' entropy); and someone who knows a valid code can make no failure count against
its owner's pair either (issue 39): the code with another municipality is another pair, and a
malformed request is not a refused code.
"""

from flask import current_app, request

from ..extensions import limiter
from .errors import ApiError
from .http import parsed_json

FAILED = (401, 422)  # wrong credentials / invalid code (and malformed attempts)


def _failed(response) -> bool:
    return response.status_code in FAILED


def client_address() -> str:
    return request.remote_addr or "-"


def _submitted(field, normalize=None, qualifier=None) -> str:
    """The account named in the form or JSON body, normalized like the login does (or by `normalize`)."""
    try:
        data = parsed_json() if request.is_json else request.form
    except ApiError:
        data = None
    value = data.get(field) if isinstance(data, dict) or hasattr(data, "getlist") else None
    if not isinstance(value, str):
        return "-"
    account = (normalize(value)[:80] if normalize is not None else value.strip().lower()[:80]) or "-"
    if qualifier is None:
        return account
    scope = data.get(qualifier)
    return f"{scope.strip().lower()[:80] if isinstance(scope, str) else '-'}|{account}"


def refused_code(response) -> bool:
    """An activation refused for its code (not a malformed request): what counts against a pair."""
    if response.status_code != 422:
        return False
    data = response.get_json(silent=True)
    return isinstance(data, dict) and (data.get("error") or {}).get("code") == "invalid_code"


def login_limits(account_field, account_scope, normalize=None, qualifier=None, account_failed=_failed):
    """Decorate a login-like view (POST) with the three buckets above. `account_scope` names the
    namespace of the account bucket: the back-office login and the API token share users.
    `normalize`: how the account field is read (default: stripped, lower case); `qualifier`: a
    field the account is keyed with (the municipality of an activation code); `account_failed`:
    which answers count against the account's buckets."""
    def config(key):
        return lambda: current_app.config[key]

    def decorator(view):
        def account():
            return _submitted(account_field, normalize, qualifier)

        view = limiter.shared_limit(config("LOGIN_ACCOUNT_RATE_LIMIT"), scope=f"{account_scope}-account",
                                    key_func=account, methods=["POST"], deduct_when=account_failed)(view)
        view = limiter.shared_limit(config("LOGIN_ACCOUNT_ADDRESS_RATE_LIMIT"),
                                    scope=f"{account_scope}-account-address",
                                    key_func=lambda: f"{account()}|{client_address()}",
                                    methods=["POST"], deduct_when=account_failed)(view)
        view = limiter.shared_limit(config("LOGIN_RATE_LIMIT"), scope="login-address",
                                    key_func=client_address, methods=["POST"], deduct_when=_failed)(view)
        return view
    return decorator
