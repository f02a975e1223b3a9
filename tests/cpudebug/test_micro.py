"""AscendC::MicroAPI from C++ (kernels/test_micro_kernels.cpp, our own kernels) under `opsnn ut`: a
SiLU written with registers equals a numpy reference computed the same way, bit for bit (float32
ops, exp in float64 rounded once, half / bfloat16 through float with round-to-nearest-even casts),
with a tail that is not a multiple of 64 lanes; ZEROING and MERGING; a register load past its
buffer and undefined lanes that reach GM are findings naming core, instruction and line."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from opsnn.cpudebug import ut
from opsnn.dtypes import bfloat16

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_micro_kernels.cpp"
COUNT = 200  # 3 full registers of 64 floats and a tail of 8


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


def _float32_inputs(rng) -> np.ndarray:
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 88.7, -88.7, 100.0, -100.0, 1e30, -1e30,
                        np.finfo(np.float32).max, -np.finfo(np.float32).tiny], dtype=np.float32)
    x = (rng.standard_normal(COUNT) * 8).astype(np.float32)
    x[:special.size] = special
    return x


def _silu32(x: np.ndarray) -> np.ndarray:
    """Muls(-1), Exp (float64 rounded once), Adds(1), Div: each step rounded to float32."""
    with np.errstate(all="ignore"):
        e = np.exp((x * np.float32(-1)).astype(np.float64)).astype(np.float32)
        return x / (e + np.float32(1))


def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    u = {2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    both_nan = np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32))
    return (a.view(u) == b.view(u)) | both_nan


@pytest.fixture(scope="module")
def good(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("micro")
    rng = np.random.default_rng(7)
    x32 = _float32_inputs(rng)
    with np.errstate(over="ignore"):
        x16 = x32.astype(np.float16)
    xbf = x32.astype(bfloat16)
    x32.tofile(work / "silu_f32.x.bin")
    x16.tofile(work / "silu_f16.x.bin")
    xbf.tofile(work / "silu_bf16.x.bin")
    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(work), "--json", str(out),
                  "--", "--gtest_filter=micro.*"])
    return rc, work, json.loads(out.read_text())["runs"][0]["launches"], (x32, x16, xbf)


def test_the_kernels_run_clean_and_the_program_checks_pass(good):
    rc, _, launches, _ = good
    assert rc == 0
    assert [x["kernel"] for x in launches] == ["kernel", "kernel", "kernel", "merge_kernel", "tail_load_kernel"]
    assert all(x["ok"] and x["findings"] == [] for x in launches)
    counts = launches[0]["core_stats"][0]["instructions"]
    assert counts["MicroAPI::Exp"] == 4 and counts["MicroAPI::DataCopy"] == 8  # 4 registers in, 4 out


def test_float_silu_bit_for_bit(good):
    _, work, _, (x32, _, _) = good
    y = np.fromfile(work / "silu_f32.y.bin", dtype=np.float32)
    assert _same_bits(y, _silu32(x32)).all()


@pytest.mark.parametrize("name, dtype", [("silu_f16", np.float16), ("silu_bf16", bfloat16)])
def test_16_bit_silu_bit_for_bit(good, name, dtype):
    _, work, _, (_, x16, xbf) = good
    x = x16 if dtype == np.float16 else xbf
    y = np.fromfile(work / f"{name}.y.bin", dtype=dtype)
    want = _silu32(x.astype(np.float32)).astype(dtype)  # widening exact, narrowing to nearest even
    assert _same_bits(y, want).all()


@pytest.fixture(scope="module")
def bad(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("micro_bad")
    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(work), "--json", str(out),
                  "--", "--gtest_filter=micro_bad.*"])
    return rc, {x["kernel"]: x for x in json.loads(out.read_text())["runs"][0]["launches"]}


def test_lanes_loaded_past_a_buffer_are_an_error_where_they_leave_for_gm(bad):
    """A register load reads a whole register (past its buffer at a tail, as kernels do); the lanes
    past the end are undefined, and the finding is where they reach GM, naming the load."""
    rc, launches = bad
    assert rc == 1
    [f] = launches["bad_load_kernel"]["findings"]
    assert (f["kind"], f["core"], f["instruction"], f["source"], f["offset"], f["nbytes"]) == (
        "ub_read_before_write", 0, "DataCopy", f"test_micro_kernels.cpp:{_line('PAST_BUFFER_SINK_LINE')}",
        128, 128)
    assert (f"MicroAPI::DataCopy at test_micro_kernels.cpp:{_line('PAST_BUFFER_LINE')} read 32 element(s) past "
            "the end of") in f["detail"]


def test_undefined_lanes_are_reported_where_they_leave_for_gm(bad):
    _, launches = bad
    [f] = launches["undefined_kernel"]["findings"]
    assert (f["kind"], f["instruction"], f["source"], f["offset"], f["nbytes"]) == (
        "ub_read_before_write", "DataCopy", f"test_micro_kernels.cpp:{_line('UNDEFINED_SINK_LINE')}", 160, 96)
    assert f"MicroAPI::DataCopy at test_micro_kernels.cpp:{_line('UNDEFINED_LOAD_LINE')}" in f["detail"]
