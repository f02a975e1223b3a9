"""Shape inference (opbase InferShape4Broadcast): backprops = the broadcast of gradients and
features, right-aligned. Per axis: equal dims stay; a 1 gives way to the other dim (so 1 with 0
is 0); two different dims neither of which is 1: an unknown dim (-1) gives way to the known one,
else the shapes do not broadcast (GRAPH_FAILED, a ValueError here). An unknown rank (None,
upstream's -2) on either side makes the output's rank unknown. No dtype inference is registered."""
from __future__ import annotations

from collections.abc import Sequence


def infer_shape(gradients_shape: Sequence[int] | None,
                features_shape: Sequence[int] | None) -> tuple[int, ...] | None:
    if gradients_shape is None or features_shape is None:
        return None
    a, b = tuple(int(d) for d in gradients_shape), tuple(int(d) for d in features_shape)
    for shape in (a, b):
        if any(d < -1 for d in shape):
            raise ValueError(f"bad dimension in shape {list(shape)}")
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    out = []
    for da, db in zip(a, b, strict=True):
        if da == db or db == 1:
            out.append(da)
        elif da == 1:
            out.append(db)
        elif da == -1 or db == -1:
            out.append(db if da == -1 else da)
        else:
            raise ValueError(f"shapes {list(gradients_shape)} and {list(features_shape)} do not broadcast")
    return tuple(out)
