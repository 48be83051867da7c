"""Tariff tables set by decree (Paranatinga Lei 311/2007 art. 35; Sapezal Lei 125/1999 art. 19)."""
