"""The expected tiling strings of upstream's arch35 unit tests, byte for byte."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from opsnn.atvoss import BroadcastBaseTiling, ElewiseBaseTiling
from opsnn.platform import Platform

from .dags import STAND_INS, hardtanh_grad_like

VECTORS = json.loads((Path(__file__).with_name("upstream_vectors.json")).read_text())
PLATFORM = Platform.custom(245760, 64, "ascend950")


def words_to_bytes(words: str) -> bytes:
    values = [int(w) for w in words.split()]
    return struct.pack(f"<{len(values)}q", *values)


def _ids(cases):
    return [c["case"] for c in cases]


@pytest.mark.parametrize("case", VECTORS["elewise"], ids=_ids(VECTORS["elewise"]))
def test_elewise(case):
    data = ElewiseBaseTiling(hardtanh_grad_like(), PLATFORM).do_tiling(case["shape"], [case["shape"]] * 2)
    extra = np.asarray(case["extra_floats"], np.float32).tobytes()  # min_val, max_val after the base struct
    assert data.to_bytes() + extra == words_to_bytes(case["words"])


@pytest.mark.parametrize("case", VECTORS["one_dim"], ids=_ids(VECTORS["one_dim"]))
def test_one_dim(case):
    result = BroadcastBaseTiling(STAND_INS[case["dag"]], PLATFORM).do_tiling(case["input_shapes"])
    assert result.schedule_mode == 201
    assert result.set_scalar(*case["scalars"]).tiling_data.to_bytes() == words_to_bytes(case["words"])


@pytest.mark.parametrize("case", VECTORS["broadcast"], ids=_ids(VECTORS["broadcast"]))
def test_broadcast(case):
    result = BroadcastBaseTiling(STAND_INS[case["dag"]], PLATFORM).do_tiling(case["input_shapes"],
                                                                             case["output_shape"])
    assert result.schedule_mode == case["schedule_mode"] and not result.ub_broadcast
    raw = result.set_scalar(*case["scalars"]).tiling_data.to_bytes()
    assert len(raw) == 712  # InputSize 3, CopyBrcSize 2
    assert raw == words_to_bytes(case["words"])


def test_vector_count():
    assert sum(len(VECTORS[k]) for k in ("elewise", "one_dim", "broadcast")) == 16
