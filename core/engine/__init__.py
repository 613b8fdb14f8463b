"""The engine layer of the core (see docs/architecture.md)."""
