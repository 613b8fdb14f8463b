"""Area (point-to-point) maps: named positions joined by arrows, with attributes and boxes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.data import load_model
from ..engine.errors import TabletopError
from .mapdata import AreaMapSpec, AreaSpec, BoxSpec

if TYPE_CHECKING:
    import networkx as nx


class AreaMap:
    """A map of named positions (areas) and the arrows joining them, over a networkx graph.

    Undirected arrows join both ways; directed ones only from ``a`` to ``b``. Attributes
    (priority, mountain, beach, capacity, ...) are free-form per area. Off-map boxes are
    kept apart from the areas.
    """

    def __init__(self, spec: AreaMapSpec) -> None:
        self.spec = spec
        self.name = spec.name
        import networkx as nx  # imported when a map is built: `tabletop list` does not pay for it

        self.graph: nx.DiGraph[str] = nx.DiGraph()
        self._areas: dict[str, AreaSpec] = {a.id: a for a in spec.areas}
        for area in spec.areas:
            self.graph.add_node(area.id, **area.attrs)
        for c in spec.connections:
            self.graph.add_edge(c.a, c.b)
            if not c.directed:
                self.graph.add_edge(c.b, c.a)
        self.boxes: dict[str, BoxSpec] = {b.id: b for b in spec.boxes}

    @classmethod
    def load(cls, path: str | Path) -> AreaMap:
        """Read and validate an area map YAML file."""
        return cls(load_model(AreaMapSpec, path))

    @classmethod
    def from_spec(cls, spec: AreaMapSpec) -> AreaMap:
        """Build the map from its validated data model."""
        return cls(spec)

    def __contains__(self, area_id: object) -> bool:
        return area_id in self._areas

    def __iter__(self) -> Iterator[str]:
        return iter(self._areas)

    def areas(self) -> list[str]:
        """Every area id, in the order of the data file."""
        return list(self._areas)

    def area(self, area_id: str) -> AreaSpec:
        """The data of one area, or a clear error."""
        try:
            return self._areas[area_id]
        except KeyError:
            raise TabletopError(f"{self.name}: no area {area_id!r}") from None

    def attr(self, area_id: str, key: str, default: Any = None) -> Any:
        """One attribute of an area (``default`` when absent)."""
        return self.area(area_id).attrs.get(key, default)

    def areas_where(self, key: str, value: Any = True) -> list[str]:
        """The areas whose attribute ``key`` equals ``value``."""
        return [a for a, spec in self._areas.items() if spec.attrs.get(key) == value]

    def neighbors(self, area_id: str) -> list[str]:
        """The areas an arrow leads to from this one, in data order."""
        self.area(area_id)
        return sorted(self.graph.successors(area_id), key=self._order)

    def is_adjacent(self, a: str, b: str) -> bool:
        """True when an arrow leads from ``a`` to ``b``."""
        return bool(self.graph.has_edge(a, b))

    def distance(self, a: str, b: str) -> int | None:
        """The fewest arrows from ``a`` to ``b``, or None when unreachable."""
        self.area(a)
        self.area(b)
        import networkx as nx

        try:
            return int(nx.shortest_path_length(self.graph, a, b))
        except nx.NetworkXNoPath:
            return None

    def path(self, a: str, b: str) -> list[str] | None:
        """A shortest chain of areas from ``a`` to ``b`` (inclusive), or None."""
        import networkx as nx

        try:
            return list(nx.shortest_path(self.graph, a, b))
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return None

    def within(self, area_id: str, steps: int) -> set[str]:
        """The areas reachable in at most ``steps`` arrows (the area itself included)."""
        import networkx as nx

        lengths = nx.single_source_shortest_path_length(self.graph, area_id, cutoff=steps)
        return set(lengths)

    def _order(self, area_id: str) -> int:
        return list(self._areas).index(area_id)
