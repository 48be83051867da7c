"""Offset pagination that never trusts the query string (page=-1, page=abc, page=10**30)."""
import math

from flask import current_app, request

MAX_QUERY_LEN = 100


def page_number():
    raw = (request.args.get("page") or "1").strip()
    return int(raw) if raw.isdigit() and len(raw) < 10 else 1


def search_text():
    # NUL never gets here: core.security refuses it at the door for every request.
    return (request.args.get("q") or "").strip()[:MAX_QUERY_LEN]


class Page:
    """One page of a query: `items`, `total`, `number`, `pages`, and links to neighbours."""

    def __init__(self, query, count_query=None, per_page=None):
        self.per_page = per_page or current_app.config["PAGE_SIZE"]
        # count() over the bare filtered query: no ORDER BY, no eager loads.
        self.total = (count_query if count_query is not None else query).order_by(None).count()
        self.pages = max(1, math.ceil(self.total / self.per_page))
        self.number = min(max(1, page_number()), self.pages)
        self.items = query.limit(self.per_page).offset((self.number - 1) * self.per_page).all()

    @property
    def has_prev(self):
        return self.number > 1

    @property
    def has_next(self):
        return self.number < self.pages

    @property
    def first_index(self):
        return 0 if self.total == 0 else (self.number - 1) * self.per_page + 1

    @property
    def last_index(self):
        return min(self.total, self.number * self.per_page)

    def args_for(self, number):
        """Current query arguments with another page number (for the pager links)."""
        args = {k: v for k, v in request.args.items() if k != "page" and v}
        args["page"] = number
        return args
