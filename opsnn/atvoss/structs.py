"""The tiling structs, byte for byte as upstream lays them out (little-endian, C alignment).

Each is a frozen dataclass with `to_bytes()`, `from_bytes()` and `upstream_dict()`; field names
are upstream's in snake_case."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields

import numpy as np

MAX_DIMS = 8
SCALAR_DATA_BYTES = 16


def _hex_free(d: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in d.items()}


@dataclass(frozen=True)
class EleBaseTilingData:
    """EleBaseTilingData (V2), 80 bytes."""
    dim0: int
    core_num: int
    ub_former: int
    block_former: int
    block_num: int
    ub_loop_of_former_block: int
    ub_loop_of_tail_block: int
    ub_tail_of_former_block: int
    ub_tail_of_tail_block: int
    elem_num: int
    sche_mode: int = 1

    FORMAT = "<qiiqqqqqqqQ"
    SIZE = 80

    def to_bytes(self) -> bytes:
        return struct.pack(self.FORMAT, *(getattr(self, f.name) for f in fields(self)))

    @classmethod
    def from_bytes(cls, data: bytes) -> EleBaseTilingData:
        return cls(*struct.unpack_from(cls.FORMAT, bytes(data)))

    def upstream_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _scalar_bytes(values: tuple[float, ...]) -> bytes:
    raw = np.asarray(values, dtype=np.float32).tobytes()
    if len(raw) > SCALAR_DATA_BYTES:
        raise ValueError(f"scalar_data holds {SCALAR_DATA_BYTES} bytes, got {len(raw)}")
    return raw.ljust(SCALAR_DATA_BYTES, b"\0")


@dataclass(frozen=True)
class BroadcastOneDimTilingData:
    """BroadcastOneDimTilingData, 56 bytes. block_former/block_tail count ub tiles."""
    scalar_flag: int
    ub_split_axis: int
    ub_former: int
    ub_tail: int
    block_num: int
    block_former: int
    block_tail: int
    scalar_data: bytes = bytes(SCALAR_DATA_BYTES)

    FORMAT = "<iiiii4xqq16s"
    SIZE = 56

    def to_bytes(self) -> bytes:
        return struct.pack(self.FORMAT, self.scalar_flag, self.ub_split_axis, self.ub_former, self.ub_tail,
                           self.block_num, self.block_former, self.block_tail, self.scalar_data)

    @classmethod
    def from_bytes(cls, data: bytes) -> BroadcastOneDimTilingData:
        return cls(*struct.unpack_from(cls.FORMAT, bytes(data)))

    def with_scalars(self, *values: float) -> BroadcastOneDimTilingData:
        return _replace(self, scalar_data=_scalar_bytes(values))

    def upstream_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["scalar_data"] = self.scalar_data.hex()
        return d


def _replace(obj, **changes):
    from dataclasses import replace
    return replace(obj, **changes)


@dataclass(frozen=True)
class BroadcastBaseTilingData:
    """BroadcastBaseTilingData<Dag>: 72 bytes of scalars, then the dims/strides arrays (int64),
    then 16 bytes of scalar_data. Array sizes follow the DAG: `input_size` inputs,
    `copy_brc_size` CopyInBrc nodes, `vec_brc_size` (0 here) VecBrc nodes."""
    input_size: int
    copy_brc_size: int
    vec_brc_size: int = 0
    sche_mode: int = 0  # not written by the multi-dim tiling
    shape_len: int = 0
    ub_split_axis: int = 0
    ub_former: int = 0
    ub_tail: int = 0
    ub_outer: int = 0
    block_former: int = 0
    block_tail: int = 0
    dim_product_before_ub_inner: int = 0
    elem_num: int = 0
    block_num: int = 0
    output_dims: tuple[int, ...] = (0,) * MAX_DIMS
    output_strides: tuple[int, ...] = (0,) * MAX_DIMS
    input_dims: tuple[tuple[int, ...], ...] = field(default=())  # [input_size][2]
    input_brc_dims: tuple[tuple[int, ...], ...] = field(default=())  # [copy_brc_size][8]
    input_vec_brc_dims: tuple[tuple[int, ...], ...] = field(default=())  # [vec_brc_size][8]
    input_strides: tuple[tuple[int, ...], ...] = field(default=())  # [input_size][8]
    input_brc_strides: tuple[tuple[int, ...], ...] = field(default=())  # [copy_brc_size][8]
    input_vec_brc_strides: tuple[tuple[int, ...], ...] = field(default=())  # [vec_brc_size][8]
    scalar_data: bytes = bytes(SCALAR_DATA_BYTES)

    HEAD = "<iiiii4xqqqqqq"
    ARRAYS = ("output_dims", "output_strides", "input_dims", "input_brc_dims", "input_vec_brc_dims",
              "input_strides", "input_brc_strides", "input_vec_brc_strides")

    def __post_init__(self):
        for name, (rows, cols) in self._shapes().items():
            value = getattr(self, name)
            if name in ("output_dims", "output_strides"):
                value = _pad(value, cols)
            else:
                value = tuple(_pad(r, cols) for r in value) + ((0,) * cols,) * (rows - len(value))
                if len(value) != rows:
                    raise ValueError(f"{name}: {len(value)} rows, the DAG has {rows}")
            object.__setattr__(self, name, value)

    def _shapes(self) -> dict[str, tuple[int, int]]:
        n, c, v = self.input_size, self.copy_brc_size, self.vec_brc_size
        return {"output_dims": (1, MAX_DIMS), "output_strides": (1, MAX_DIMS), "input_dims": (n, 2),
                "input_brc_dims": (c, MAX_DIMS), "input_vec_brc_dims": (v, MAX_DIMS),
                "input_strides": (n, MAX_DIMS), "input_brc_strides": (c, MAX_DIMS),
                "input_vec_brc_strides": (v, MAX_DIMS)}

    @staticmethod
    def size_for(input_size: int, copy_brc_size: int, vec_brc_size: int = 0) -> int:
        words = 2 * MAX_DIMS + 2 * input_size + MAX_DIMS * (input_size + 2 * copy_brc_size + 2 * vec_brc_size)
        return 72 + 8 * words + SCALAR_DATA_BYTES

    @property
    def size(self) -> int:
        return self.size_for(self.input_size, self.copy_brc_size, self.vec_brc_size)

    def to_bytes(self) -> bytes:
        head = struct.pack(self.HEAD, self.sche_mode, self.shape_len, self.ub_split_axis, self.ub_former,
                           self.ub_tail, self.ub_outer, self.block_former, self.block_tail,
                           self.dim_product_before_ub_inner, self.elem_num, self.block_num)
        words = []
        for name in self.ARRAYS:
            value = getattr(self, name)
            words.extend(value if name in ("output_dims", "output_strides") else [w for r in value for w in r])
        return head + struct.pack(f"<{len(words)}q", *words) + self.scalar_data

    @classmethod
    def from_bytes(cls, data: bytes, input_size: int, copy_brc_size: int,
                   vec_brc_size: int = 0) -> BroadcastBaseTilingData:
        data = bytes(data)
        head = struct.unpack_from(cls.HEAD, data)
        probe = cls(input_size, copy_brc_size, vec_brc_size)
        pos, arrays = 72, {}
        for name, (rows, cols) in probe._shapes().items():
            flat = struct.unpack_from(f"<{rows * cols}q", data, pos)
            pos += 8 * rows * cols
            rows_t = tuple(tuple(flat[r * cols:(r + 1) * cols]) for r in range(rows))
            arrays[name] = rows_t[0] if name in ("output_dims", "output_strides") else rows_t
        scalar = data[pos:pos + SCALAR_DATA_BYTES]
        names = ("sche_mode", "shape_len", "ub_split_axis", "ub_former", "ub_tail", "ub_outer", "block_former",
                 "block_tail", "dim_product_before_ub_inner", "elem_num", "block_num")
        return cls(input_size, copy_brc_size, vec_brc_size, **dict(zip(names, head, strict=True)), **arrays,
                   scalar_data=scalar)

    def with_scalars(self, *values: float) -> BroadcastBaseTilingData:
        return _replace(self, scalar_data=_scalar_bytes(values))

    def upstream_dict(self) -> dict:
        skip = {"input_size", "copy_brc_size", "vec_brc_size"}
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in skip}
        d = _hex_free(d)
        for name in self.ARRAYS:
            d[name] = [list(r) for r in getattr(self, name)] if name not in ("output_dims", "output_strides") \
                else list(getattr(self, name))
        d["scalar_data"] = self.scalar_data.hex()
        return d


def _pad(row, cols: int) -> tuple[int, ...]:
    row = tuple(int(v) for v in row)
    if len(row) > cols:
        raise ValueError(f"{len(row)} values for {cols} slots")
    return row + (0,) * (cols - len(row))
