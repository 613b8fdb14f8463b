"""tabletop.core: the generic engine for board wargames (maps, dice, tables, pieces, decisions).

It never imports a game. See docs/architecture.md for the map of its modules.
"""
