"""Registry validation that comes from the rule packs (filled in once the packs exist).

Returns {field: [pt-BR reason citing the article]}; empty when nothing is wrong.
"""


def registry_problems(municipality, entity, data):
    return {}
