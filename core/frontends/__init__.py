"""The frontends layer of the core (see docs/architecture.md)."""
