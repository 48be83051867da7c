"""shared_rules/vectors/amounts/auto-amounts.json on the server (also run by the phone's suite,
tests/js/auto_amounts_vectors.test.mjs): where the server sums an auto's amounts, a CTB/SNT
infraction never enters the municipal auto's amounts (autos.auto_data.by_authority for the
notificação and the penalties of the ledger; dashboard.derive for the dashboard), and an amount
nobody configured gives no total and is counted apart, never R$ 0,00."""
import json
import re
from datetime import datetime
from pathlib import Path

import pytest

from server.modules.autos.auto_data import amount_words, by_authority, total_cents
from server.modules.dashboard.derive import derive
from server.rules import load_municipality

VECTORS = json.loads((Path(__file__).parent.parent / "shared_rules/vectors/amounts/auto-amounts.json").read_text("utf-8"))


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"][:60] for c in VECTORS["cases"]])
def test_auto_amounts_vector(case):
    composed = load_municipality(case["municipality"])
    items = case["infractions"]
    own, traffic = by_authority(composed, items, case["integrated"])
    expect = case["expect"]
    assert [i["id"] for i in own] == expect["municipal"]
    assert [i["id"] for i in traffic] == expect["traffic"]
    assert total_cents(own) == expect["total_cents"]
    for item in own:
        amount = item["amount"] or {}
        words = amount_words(item["amount_brl_cents"], amount.get("value"), amount.get("unit"), item["penalty_kind"])
        assert not re.search(r"R\$\s0,00", words), words
        if item["id"] in expect["words_contain"]:
            assert expect["words_contain"][item["id"]] in words, words

    # The dashboard derives the same auto, as the phone sends it (amount_brl in reais).
    body = {"infractions": [{"id": i["id"], "label_pt": i["id"], "amount": i["amount"], "decision": "confirmed",
                             "amount_brl": None if i["amount_brl_cents"] is None else i["amount_brl_cents"] / 100}
                            for i in items]}
    stat, _ = derive(body, "auto", datetime(2026, 11, 2, 10, 0))
    assert (stat["amount_cents"], stat["unpriced"]) == (expect["dashboard_cents"], expect["unpriced"])
