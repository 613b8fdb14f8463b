"""Maintenance tools of the repository, not installed with tabletop: the generators that
write games' data files (run from the repository root, e.g. ``python -m tools.iwo_valor_map``)."""
