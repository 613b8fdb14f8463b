"""The designer layer of the core (see docs/architecture.md)."""
