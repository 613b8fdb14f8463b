"""The runtime hex map: a validated :class:`~.mapdata.HexMapSpec` with fast lookups.

Every hex inside the printed bounds exists; the ones the data file does not list take the
map's default terrain. Hexes are also numbered 0..N-1 in label order, with precomputed
neighbour tables, so that searches such as :mod:`movement` work on plain integers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from ..engine.data import load_model
from ..engine.errors import DataError
from .hexgrid import DIRECTIONS, Hex, HexGrid, HexSide, InvalidHexError, line, within
from .mapdata import BoxSpec, FeatureType, HexMapSpec, LabelSpec, TerrainType

_EMPTY: frozenset[str] = frozenset()
_NO_ATTRS: Mapping[str, Any] = MappingProxyType({})
_K = TypeVar("_K")
_V = TypeVar("_V")


class _Table(dict[_K, _V]):
    """A table read through its ``__getitem__`` (a C-level lookup: the rules ask thousands
    of times a game), a key it does not hold answered by ``missing`` (which may raise)."""

    __slots__ = ("_missing",)

    def __init__(self, table: Mapping[_K, _V], missing: Callable[[_K], _V]) -> None:
        super().__init__(table)
        self._missing = missing

    def __missing__(self, key: _K) -> _V:
        return self._missing(key)


class HexMap:
    """A hex map at play time: terrain, features, attributes and hexsides of every hex.

    Build one with :meth:`from_spec` or :meth:`load`. Hexes are :class:`~.hexgrid.Hex`
    values; printed ids ``XXYY`` convert with :meth:`hex` and :meth:`label`.

    Rules name hexes by printed id and ask the same few questions of them thousands of
    times a game, so these are answered by id too, each a C-level lookup of a table made
    with the map, or kept as first asked (the map never changes), so that no game keeps
    copies of its own (the attributes below, and :meth:`id_line`).
    """

    hex: Callable[[str], Hex]
    """The hex of a printed id; InvalidHexError if it is malformed or not on this map."""
    label: Callable[[Hex], str]
    """The printed id ``XXYY`` of a hex (of the map, or just off it)."""
    is_hex_id: Callable[[object], bool]
    """Whether a place is the printed id of a hex of this map (rather than a box, a track or
    the place off the board): what rules ask of a piece's location."""
    neighbor_ids: Callable[[str], tuple[str, ...]]
    """The printed ids of the on-map neighbours of a hex given by its id, in direction order
    (the same hexes as :meth:`neighbors`)."""
    passable_neighbor_ids: Callable[[str], tuple[str, ...]]
    """:attr:`neighbor_ids` less the hexes of prohibited terrain (all-sea, say): where a unit
    in the hex could ever step, in direction order."""
    id_distance: Callable[[str, str], int]
    """The hex distance between two hexes given by printed id (steps from the first to the
    second, counting the target hex but not the origin: a range)."""
    ids_within: Callable[[str, int], tuple[str, ...]]
    """The printed ids of the hexes of this map within a radius of a hex given by id (itself
    included), in axial order (:func:`~.hexgrid.within`)."""
    id_hexside_features: Callable[[str, str], frozenset[str]]
    """:meth:`hexside_features` of two adjacent hexes given by printed id."""

    def __init__(self, spec: HexMapSpec, *, source: str = "<map>") -> None:
        self.spec = spec
        self.source = source
        self.name = spec.name
        self.grid = HexGrid(spec.columns, spec.rows, spec.shifted)
        self.terrain_types: Mapping[str, TerrainType] = spec.terrain_types
        self.feature_types: Mapping[str, FeatureType] = spec.feature_types
        self.hexside_types: Mapping[str, FeatureType] = spec.hexside_types
        self.boxes: dict[str, BoxSpec] = {b.id: b for b in spec.boxes}
        self.labels: tuple[LabelSpec, ...] = spec.labels

        absent = set(spec.absent)
        hexes = tuple(h for h in self.grid.hexes() if self.grid.label(h) not in absent)
        self._hexes = hexes
        self._index: dict[Hex, int] = {h: i for i, h in enumerate(hexes)}
        self._labels: tuple[str, ...] = tuple(self.grid.label(h) for h in hexes)
        self._by_id: dict[str, Hex] = dict(zip(self._labels, hexes, strict=True))
        n = len(hexes)
        self._terrain: list[str] = [spec.default_terrain] * n
        self._features: list[frozenset[str]] = [_EMPTY] * n
        self._attrs: list[Mapping[str, Any]] = [_NO_ATTRS] * n
        self._names: list[str | None] = [None] * n
        for hid, hspec in spec.hexes.items():
            i = self._index[self._by_id[hid]]
            if isinstance(hspec, str):
                self._terrain[i] = hspec
            else:
                self._terrain[i] = hspec.terrain
                self._features[i] = frozenset(hspec.features)
                self._attrs[i] = MappingProxyType(dict(hspec.attrs))
                self._names[i] = hspec.name

        # neighbor_index[i][d] is the index of the neighbour of hex i in direction d, or -1
        # off the map; adjacency[i] lists (direction, index) for the on-map ones only.
        nbr: list[tuple[int, ...]] = []
        for h in hexes:
            nbr.append(tuple(self._index.get(Hex(h.q + dq, h.r + dr), -1)
                             for dq, dr in DIRECTIONS))
        self.neighbor_index: tuple[tuple[int, ...], ...] = tuple(nbr)
        self.adjacency: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((d, j) for d, j in enumerate(row) if j >= 0) for row in nbr)
        # the rules ask for a hex's neighbours by printed id thousands of times a game
        self._neighbor_ids: dict[str, tuple[str, ...]] = {
            self._labels[i]: tuple(self._labels[j] for _, j in row)
            for i, row in enumerate(self.adjacency)}
        passable = {a: tuple(b for b in row if not self.terrain_types[
                        self._terrain[self._index[self._by_id[b]]]].prohibited)
                    for a, row in self._neighbor_ids.items()}
        self.hex = _Table(self._by_id, self._no_hex).__getitem__
        self.label = _Table(dict(zip(hexes, self._labels, strict=True)), self.grid.label).__getitem__
        self.is_hex_id = self._by_id.__contains__
        self.neighbor_ids = _Table(self._neighbor_ids, self._unknown_id).__getitem__
        self.passable_neighbor_ids = _Table(passable, self._unknown_id).__getitem__
        self.id_distance = lru_cache(maxsize=None)(self._id_distance)
        self.ids_within = lru_cache(maxsize=None)(self._ids_within)
        self.id_hexside_features = lru_cache(maxsize=None)(self._id_hexside_features)

        self._sides: dict[HexSide, frozenset[str]] = {}
        for k, side_spec in enumerate(spec.hexsides):
            side = self._side_from_ids(side_spec.between, where=f"hexsides.{k}.between")
            self._sides[side] = self._sides.get(side, _EMPTY) | frozenset(side_spec.features)
        # the same features by the two hexes' indices, both ways (hexside_features)
        self._side_at: dict[tuple[int, int], frozenset[str]] = {}
        for side, feats in self._sides.items():
            i, j = self._index[side.a], self._index[side.b]
            self._side_at[i, j] = self._side_at[j, i] = feats
        # and by the two hexes' printed ids, both ways (id_hexside_features)
        self._side_ids: dict[tuple[str, str], frozenset[str]] = {}
        for (i, j), feats in self._side_at.items():
            self._side_ids[self._labels[i], self._labels[j]] = feats
        for k, lab in enumerate(spec.labels):
            if lab.at not in self._by_id:
                raise DataError(f"{source}: labels.{k}.at: {lab.at!r} is not a hex of the map "
                                f"({self._bounds()})")

    @classmethod
    def from_spec(cls, spec: HexMapSpec, *, source: str = "<map>") -> HexMap:
        """Build the runtime map from a validated spec; ``source`` names it in errors."""
        return cls(spec, source=source)

    @classmethod
    def load(cls, path: str | Path) -> HexMap:
        """Read and validate a map file (YAML or JSON), or raise DataError naming the file."""
        return cls(load_model(HexMapSpec, path), source=str(path))

    def __repr__(self) -> str:
        return f"<HexMap {self.name!r} {self.grid!r}>"

    def __reduce__(self) -> tuple[Callable[[HexMapSpec, str], HexMap], tuple[HexMapSpec, str]]:
        """Pickled (and deep-copied) as its spec and source: the tables are made again."""
        return (_rebuild, (self.spec, self.source))

    # --- hexes and ids -------------------------------------------------------------------

    def _no_hex(self, hex_id: str) -> Hex:
        """:attr:`hex` of an id the map does not hold: the one clear message."""
        try:
            self.grid.parse(hex_id)  # every on-grid hex is in _by_id, so this raises
        except InvalidHexError as exc:
            raise InvalidHexError(f"map {self.name!r}: {exc}") from None
        raise InvalidHexError(f"map {self.name!r}: no hex {hex_id}")  # pragma: no cover

    def _unknown_id(self, hex_id: str) -> tuple[str, ...]:
        """A question by id of an id the map does not hold: :attr:`hex`'s message."""
        self.hex(hex_id)
        raise AssertionError(hex_id)  # pragma: no cover - hex() raised already

    def hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map in label order."""
        return self._hexes

    def ids(self) -> tuple[str, ...]:
        """The printed id of every hex, in the same order as :meth:`hexes` (by table index)."""
        return self._labels

    def __contains__(self, h: object) -> bool:
        """Whether a hex (or a printed id string) is on the map."""
        return h in self._index or h in self._by_id

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._hexes)

    def __len__(self) -> int:
        return len(self._hexes)

    def index(self, h: Hex) -> int:
        """The hex's position 0..N-1 in label order, the key of the integer tables."""
        try:
            return self._index[h]
        except (KeyError, TypeError):
            raise self._off_map(h) from None

    def indices(self, hexes: Iterable[Hex]) -> list[int]:
        """The table positions of the given hexes that are on the map; others are skipped."""
        get = self._index.get
        return [i for i in map(get, hexes) if i is not None]

    def hex_at(self, index: int) -> Hex:
        """The hex at a position of the integer tables."""
        return self._hexes[index]

    def neighbors(self, h: Hex) -> list[Hex]:
        """The on-map neighbours of a hex, in direction order."""
        return [self._hexes[j] for _, j in self.adjacency[self.index(h)]]

    # --- hexes by printed id (the attributes above answer through these) ----------------

    def _id_distance(self, a: str, b: str) -> int:
        by_id = self._by_id
        try:
            aq, ar = by_id[a]
            bq, br = by_id[b]
        except (KeyError, TypeError):
            self.hex(a), self.hex(b)  # raises the usual message for an unknown id
            raise  # pragma: no cover - hex() raised already
        dq, dr = aq - bq, ar - br
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    def _ids_within(self, hex_id: str, radius: int) -> tuple[str, ...]:
        index, labels = self._index, self._labels
        return tuple(labels[index[x]] for x in within(self.hex(hex_id), radius) if x in index)

    def _id_hexside_features(self, a: str, b: str) -> frozenset[str]:
        found = self._side_ids.get((a, b))
        if found is not None:
            return found
        if b in self._neighbor_ids.get(a, ()):
            return _EMPTY
        return self.hexside_features(self.hex(a), self.hex(b))  # raises: unknown, not adjacent

    def id_line(self, a: str, b: str) -> list[tuple[str, ...]]:
        """:func:`~.hexgrid.line` between two hexes given by printed id, as printed ids: the
        hexes a centre-to-centre line crosses from ``a`` to ``b`` inclusive, one a step, or
        two (ascending) where it runs along the hexside between them."""
        return [tuple(map(self.label, step)) for step in line(self.hex(a), self.hex(b))]

    def is_edge(self, h: Hex) -> bool:
        """Whether a hex of the map is a map-edge hex: one of its six neighbours is off it."""
        return len(self.adjacency[self.index(h)]) < 6

    def edge_distance(self, h: Hex) -> int:
        """How many hexes in from the edge a hex lies: 0 for a map-edge hex, 1 for the next
        row in, and so on (by breadth-first search from the edge hexes)."""
        start = self.index(h)
        seen = {start}
        frontier = [start]
        depth = 0
        while frontier:
            if any(len(self.adjacency[i]) < 6 for i in frontier):
                return depth
            nxt = []
            for i in frontier:
                for _, j in self.adjacency[i]:
                    if j not in seen:
                        seen.add(j)
                        nxt.append(j)
            frontier = nxt
            depth += 1
        return depth  # pragma: no cover - a finite map always has an edge

    # --- terrain and features ------------------------------------------------------------

    def terrain(self, h: Hex) -> str:
        """The name of the hex's terrain type."""
        return self._terrain[self.index(h)]

    def terrain_type(self, h: Hex) -> TerrainType:
        """The hex's terrain type from the map's terrain key."""
        return self.terrain_types[self._terrain[self.index(h)]]

    def is_prohibited(self, h: Hex) -> bool:
        """Whether the hex's terrain is prohibited ground (an all-sea hex, say)."""
        return self.terrain_type(h).prohibited

    def features(self, h: Hex) -> frozenset[str]:
        """The hex's features (hill, airfield, beach...)."""
        return self._features[self.index(h)]

    def has_feature(self, h: Hex, feature: str) -> bool:
        """Whether the hex has a feature."""
        return feature in self._features[self.index(h)]

    def attr(self, h: Hex, key: str, default: Any = None) -> Any:
        """One of the hex's free-form attributes (sector number, deployment code...)."""
        return self._attrs[self.index(h)].get(key, default)

    def attrs(self, h: Hex) -> Mapping[str, Any]:
        """All of the hex's free-form attributes, read-only (empty when it has none)."""
        return self._attrs[self.index(h)]

    def hex_name(self, h: Hex) -> str | None:
        """The place name printed in the hex, if any."""
        return self._names[self.index(h)]

    def hexes_with(self, feature: str) -> list[Hex]:
        """The hexes that have a feature, in label order."""
        return [h for h, f in zip(self._hexes, self._features, strict=True) if feature in f]

    def hexes_where(self, key: str, value: Any) -> list[Hex]:
        """The hexes whose attribute ``key`` equals ``value``, in label order."""
        missing = object()
        return [h for h, a in zip(self._hexes, self._attrs, strict=True)
                if a.get(key, missing) == value]

    # --- hexsides ------------------------------------------------------------------------

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features of the hexside between two adjacent hexes (empty if none)."""
        i, j = self._index.get(a), self._index.get(b)
        if i is not None and j is not None and j in self.neighbor_index[i]:
            return self._side_at.get((i, j), _EMPTY)
        return self._sides.get(HexSide(a, b), _EMPTY)  # off the map, or raises: not adjacent

    def hexsides(self) -> Mapping[HexSide, frozenset[str]]:
        """Every hexside that has features, with them."""
        return MappingProxyType(self._sides)

    def hexsides_with(self, feature: str) -> list[HexSide]:
        """The hexsides that have a feature, ordered by their hexes' label order."""
        found = [s for s, f in self._sides.items() if feature in f]
        return sorted(found, key=lambda s: (self._index[s.a], self._index[s.b]))

    # --- helpers -------------------------------------------------------------------------

    def _bounds(self) -> str:
        (c0, c1), (r0, r1) = self.grid.columns, self.grid.rows
        return f"columns {c0:02d}-{c1:02d}, rows {r0:02d}-{r1:02d}"

    def _off_map(self, h: object) -> InvalidHexError:
        try:
            what = f"hex {self.grid.label(h)}" if isinstance(h, Hex) else repr(h)
        except InvalidHexError:
            what = repr(h)
        return InvalidHexError(f"{what} is not on map {self.name!r} ({self._bounds()})")

    def _side_from_ids(self, ids: tuple[str, str], *, where: str) -> HexSide:
        a_id, b_id = ids
        for hid in ids:
            if hid not in self._by_id:
                raise DataError(f"{self.source}: {where}: hexside {a_id}-{b_id}: {hid} is not "
                                f"a hex of the map ({self._bounds()})")
        try:
            return HexSide(self._by_id[a_id], self._by_id[b_id])
        except ValueError:
            raise DataError(f"{self.source}: {where}: hexes {a_id} and {b_id} are not "
                            f"adjacent, so they share no hexside") from None


def _rebuild(spec: HexMapSpec, source: str) -> HexMap:
    """A pickled map made again from its spec (:meth:`HexMap.__reduce__`)."""
    return HexMap(spec, source=source)
