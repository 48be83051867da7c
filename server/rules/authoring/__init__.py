"""Authoring a pack from a law text, for a municipal analyst (docs/guia-codificacao-de-leis.md):
read the law's provisions (law_text), scaffold a pack (scaffold), explain each problem in the law's
terms with its fix (checker), account for every provision (coverage). Pure Python, no Flask."""
