"""The board layer of the core (see docs/architecture.md)."""
