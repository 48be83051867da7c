"""The demo data set (`flask demo load`, the tests' `demo` fixture): built through the real
operations of every feature, so it sits above them all and nothing but the CLI and the tests
imports it."""
