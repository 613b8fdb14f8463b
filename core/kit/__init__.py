"""The designer's kit: the standard procedures of a hex-and-counter game as building blocks.

A game on the kit declares, as data beside its ``data/map.yaml`` and ``data/sequence.yaml``,
its counters (``units.yaml``, :mod:`.units`), its Terrain Effects Chart (``terrain.yaml``,
:mod:`.terrain`), its Combat Results Table (``crt.yaml``) and the options of its standard
rules (``kit.yaml``, :mod:`.rules`: zones of control, stacking, attack declaration, odds
columns, results, step losses, retreats, advance after combat). Its flow calls the
movement phase loop (:func:`.movement.movement_phase`) and the attack phase loop
(:func:`.combat.attack_phase`) in one line each; :class:`.game.KitGame` is the
:class:`~tabletop.core.engine.match.PhasedGame` that loads and checks all of it, and
:class:`.bot.KitBot` the heuristic opponent ``data/ai.yaml``'s priorities steer. Every
procedure is a hook of :class:`.game.KitGame` a game may override where its rules differ.
"""
