"""Request helpers shared by the JSON API."""
from flask import request

from .errors import ApiError


def json_body():
    """The request's JSON object, or a 400 envelope that says so (never a 500)."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid_json", "Envie um objeto JSON no corpo da requisição.")
    return data
