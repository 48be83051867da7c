"""Signed operator credentials (crachás): codec, signing, offline verification, keys, printing.

codec.py, signing.py and verifier.py are pure (no Flask, no database) so the same rules can be
mirrored line by line in pwa/js/credentials/ and checked against tests/vectors/credentials/.
"""
