"""Daily jobs: every date the laws make count (expiry, suspension, caducidade, penalties that
become applied, records cancelled after a quiet period, reminders) runs from one command,
`flask jobs run-daily`, which cron or a systemd timer calls once a day."""
