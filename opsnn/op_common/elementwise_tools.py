"""What an elementwise operator's tools.py (`opsnn tiling` / `opsnn sanitize`, opsnn.registry)
repeats: operands of one shape, random inputs with special values mixed in, and a tiling report
of fields and per-core rows."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from opsnn.op_common import elementwise_report
from opsnn.op_common.kernel_run import random_values


def one_shape(request, op: str, operands: str) -> tuple[int, ...]:
    """The one shape of the request's two input shapes (ValueError otherwise)."""
    shapes = request.input_shapes
    if len(shapes) != 2 or shapes[0] != shapes[1]:
        raise ValueError(f"{op} takes {operands} of one shape, got {[list(s) for s in shapes]}")
    return tuple(shapes[0])


def with_specials(rng: np.random.Generator, dtype, n: int, specials) -> np.ndarray:
    """random_values with about one in ten replaced by one of `specials` (NaN, infinities, zeros...)."""
    values = random_values(rng, dtype, n)
    pick = rng.random(n) < 0.1
    specials = np.asarray(specials, np.float32).astype(dtype)
    values[pick] = specials[rng.integers(0, specials.size, int(pick.sum()))]
    return values


def tiling_fields(block_dim: int, tiling_key: int, data, workspace_size: int | None = None) -> dict:
    """The report's fields: launch, the struct's fields as upstream names them, its bytes."""
    size = {} if workspace_size is None else {"workspace_size": workspace_size}
    return {"block_dim": block_dim, "tiling_key": tiling_key, **size, **data.upstream_dict(),
            "tiling_data": data.to_bytes().hex()}


@dataclass(frozen=True)
class TilingReport:
    """title, fields (JSON and one text line each), per-core rows (the plot; with plan=True also
    the text's per-core table, elementwise_report.plan_lines)."""
    title: str
    fields: dict
    rows: list
    plan: bool = False

    def json_dict(self) -> dict:
        return self.fields

    def text_lines(self) -> list[str]:
        lines = [self.title, *(f"  {key:<24} {value}" for key, value in self.fields.items())]
        return lines + (elementwise_report.plan_lines(self.rows) if self.plan else [])

    def core_rows(self) -> list[dict]:
        return self.rows
