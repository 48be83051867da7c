"""Review of what fiscais sync from the field: the queue of received inspections and autos, the
record page (evidence, clocks, flags, the raw signed record), decisions on autos, cancellation
requests, corrections as versions, conflicts, and the server's re-evaluation of the facts."""
