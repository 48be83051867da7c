"""Users, sessions, API tokens, devices and operator first-access codes."""
