"""Games bundled with tabletop, one package each; found through the tabletop.games entry points."""
