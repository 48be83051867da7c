"""Collection of fines: PIX BR Codes from municipal settings, bank statements reconciled (issue 37)."""
