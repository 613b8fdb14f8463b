"""The studies layer of the core (see docs/architecture.md)."""
