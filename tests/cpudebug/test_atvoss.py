"""The atvoss C++ framework (opsnn/cpudebug/include/atvoss) under `opsnn ut`: our own Ascend950
kernels written as DAGs (kernels/test_atvoss_kernels.cpp) run on the emulator clean, and their
outputs equal numpy computed the way the instructions compute, bit for bit: an elementwise binary
op with a scalar attribute (multi-core, tails), a cast to two outputs, a DAG with a tensor-scalar
input, a scalar op, a constant and Vars from the tiling, and ThresholdGradV2D's arch35 DAG on
the one-dim broadcast schedule, also equal to opsnn's Python atvoss running the same DAG on the
same tiling. An op writing past its tile is local_tensor_overflow naming its line."""
from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

from opsnn.activation.threshold_grad_v2_d.op_kernel.arch35.threshold_grad_v2_d_dag import threshold_grad_v2_d_dag
from opsnn.ascendc import GlobalMemory, KernelArg
from opsnn.atvoss import BroadcastBaseTiling, launch_broadcast
from opsnn.cpudebug import ut
from opsnn.dtypes import bfloat16
from opsnn.platform import SOCS, Platform
from tests.ascendc.exact_rounding import fma

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_atvoss_kernels.cpp"
PLATFORM = SOCS["Ascend950"]
N = 1000  # two cores: blocks of 512 and 488 elements


def _line(marker: str) -> int:
    return next(i for i, text in enumerate(SOURCE.read_text().splitlines(), 1) if marker in text)


def _floats(rng, n: int) -> np.ndarray:
    special = np.array([0.0, -0.0, np.inf, -np.inf, 1e-40, -1e-40, 65504.0, 65520.0, -70000.0, 1e30,
                        np.finfo(np.float32).tiny, 3.0, -3.0], dtype=np.float32)
    x = (rng.standard_normal(n) * 100).astype(np.float32)
    x[:special.size] = special
    return x


def _ele_tiling(dim0: int, block_former: int, ub_former: int) -> tuple[bytes, int]:
    """EleBaseTilingData (80 bytes) for dim0 elements in blocks of block_former, tiles of ub_former."""
    blocks = -(-dim0 // block_former)
    tail_block = dim0 - (blocks - 1) * block_former
    loops_f, loops_t = -(-block_former // ub_former), -(-tail_block // ub_former)
    raw = struct.pack("<qiiqqqqqqqQ", dim0, blocks, ub_former, block_former, blocks, loops_f, loops_t,
                      block_former - (loops_f - 1) * ub_former, tail_block - (loops_t - 1) * ub_former, ub_former, 1)
    return raw, blocks


def _write_case(work: Path, name: str, inputs: list[np.ndarray], out_bytes: list[int], tiling: bytes,
                block_dim: int) -> None:
    for k, a in enumerate(inputs):
        np.ascontiguousarray(a).tofile(work / f"{name}.in{k}.bin")
    np.array(out_bytes, dtype=np.uint64).tofile(work / f"{name}.outsizes.bin")
    (work / f"{name}.tiling.bin").write_bytes(tiling)
    np.array([block_dim], dtype=np.uint32).tofile(work / f"{name}.blockdim.bin")


def _out(work: Path, name: str, k: int, dtype) -> np.ndarray:
    return np.fromfile(work / f"{name}.out{k}.bin", dtype=dtype)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype
    if a.dtype.kind in "iu":
        return bool((a == b).all())
    u = np.dtype(f"u{a.dtype.itemsize}")
    both_nan = np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32))
    return bool(((a.view(u) == b.view(u)) | both_nan).all())


# ---- the numpy references: each instruction's rounding, in order ----
def _scaled_diff(a, b, alpha: np.float32, dtype) -> np.ndarray:
    with np.errstate(all="ignore"):
        return ((a.astype(np.float32) - b.astype(np.float32)) * alpha).astype(dtype)


def _round_half_away_saturating(x: np.ndarray) -> np.ndarray:
    r = np.trunc(x.astype(np.float64) + np.copysign(0.5, x))
    return np.clip(r, np.iinfo(np.int32).min, np.iinfo(np.int32).max).astype(np.int32)


def _gated_scale(x: np.ndarray, s: np.float16, v: np.float32) -> np.ndarray:
    xf = x.astype(np.float32)
    with np.errstate(all="ignore"):
        return np.where(xf > np.float32(s), xf * v, np.float32(1.5)).astype(np.float16)


def _micro_mix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """MicroMix's steps, each rounded to float32 (log in float64 rounded once, as Ln; MulDstAdd
    fused: (-a) * a + b rounded once)."""
    f = np.float32
    with np.errstate(all="ignore"):
        r = (b * f(0.3)) + fma(-a, a, b)
        abs_a = np.abs(a)
        q = r / (abs_a + f(1)) + np.log(abs_a.astype(np.float64)).astype(f)
        out = np.where(a > 0, q, r)
        return np.where(np.isnan(b), f(0), out).astype(f)


TGV2D_DTYPES = {"f32": "float32", "f16": "float16", "i8": "int8"}
THRESHOLD = np.float32(0.25)


def _tgv2d_inputs(dtype: str, shape: str, rng) -> tuple[np.ndarray, np.ndarray]:
    dt = np.dtype(dtype)
    if dt.kind == "i":
        grad = rng.integers(-128, 128, N).astype(dt)
        self_ = rng.integers(-2, 3, N).astype(dt)
    else:
        with np.errstate(over="ignore"):
            grad = _floats(rng, N).astype(dt)
        self_ = (rng.standard_normal(N) * 0.5).astype(np.float32)
        self_[:4] = [np.nan, 0.25, -0.0, np.inf]
        self_ = self_.astype(dt)
    return grad, (self_[:1] if shape == "brc" else self_)


def _multi_dim_cases(small: Platform) -> list:
    return [("tgv2d_nd_f32", "float32", (64, 300), (64, 1), PLATFORM, 1),
            ("tgv2d_nd_f32_split", "float32", (9, 5, 7, 40), (9, 1, 7, 40), small, 1),
            ("tgv2d_ub102_f16", "float16", (64, 512), (64, 1), PLATFORM, 102),
            ("tgv2d_ub102_f16_grad", "float16", (6, 1, 2048), (6, 4, 2048), PLATFORM, 102),
            ("tgv2d_ub103_f16", "float16", (8, 32, 16), (8, 1, 16), PLATFORM, 103)]


def _tgv2d_python_multi(dtype: str, grad, self_, out_shape, mode: int, tiling: bytes) -> np.ndarray:
    gm = GlobalMemory()
    args = []
    for name, a in (("grad", grad), ("self", self_), ("out", np.zeros(out_shape, grad.dtype))):
        raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
        addr = gm.malloc(raw.size)
        gm.bytes_view(addr, raw.size)[:] = raw
        args.append(KernelArg(name, addr, raw.size))
    report = launch_broadcast(threshold_grad_v2_d_dag(dtype), gm=gm, platform=PLATFORM, schedule_mode=mode,
                              tiling=tiling, inputs=args[:2], outputs=args[2:], sanitize=True)
    assert report.findings == []
    return np.array(gm.bytes_view(args[2].addr, args[2].nbytes)).view(grad.dtype)


def _tgv2d_reference(grad: np.ndarray, self_: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        s = np.broadcast_to(self_.astype(np.float32), grad.shape)
        return np.where(s <= THRESHOLD, np.float32(0), grad.astype(np.float32)).astype(grad.dtype)


def _tgv2d_python(dtype: str, grad, self_, tiling: bytes) -> np.ndarray:
    """opsnn's Python atvoss: the same DAG on the same tiling."""
    gm = GlobalMemory()
    args = []
    for name, a in (("grad", grad), ("self", self_), ("out", np.zeros_like(grad))):
        raw = np.ascontiguousarray(a).view(np.uint8)
        addr = gm.malloc(raw.size)
        gm.bytes_view(addr, raw.size)[:] = raw
        args.append(KernelArg(name, addr, raw.size))
    report = launch_broadcast(threshold_grad_v2_d_dag(dtype), gm=gm, platform=PLATFORM, schedule_mode=201,
                              tiling=tiling, inputs=args[:2], outputs=args[2:], sanitize=True)
    assert report.findings == []
    return np.array(gm.bytes_view(args[2].addr, args[2].nbytes)).view(grad.dtype)


@pytest.fixture(scope="module")
def good(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("atvoss")
    rng = np.random.default_rng(34)
    cases: dict = {}

    alpha = np.float32(-1.75)
    tiling, blocks = _ele_tiling(N, 512, 192)  # tiles 192, 192, 128 / 192, 192, 104
    for tag, dt in (("f32", np.float32), ("f16", np.float16), ("bf16", bfloat16)):
        with np.errstate(over="ignore"):
            a, b = _floats(rng, N).astype(dt), _floats(rng, N).astype(dt)
        tail = struct.pack("<f4x", alpha)  # ScaledDiffTiling: 88 bytes, the struct is 8-aligned
        _write_case(work, f"scaled_diff_{tag}", [a, b], [N * a.itemsize], tiling + tail, blocks)
        cases[f"scaled_diff_{tag}"] = _scaled_diff(a, b, alpha, dt)

    x = _floats(rng, N)
    x[20:30] = [0.5, 1.5, 2.5, -0.5, -2.5, 2.0**31, -2.0**31 - 1e3, 3e9, -3e9, 2147483520.0]
    _write_case(work, "cast_two", [x], [N * 2, N * 4], struct.pack("<qii", N, 3, 256), 2)  # blocks 512, 488
    with np.errstate(over="ignore"):
        cases["cast_two"] = (x.astype(np.float16), _round_half_away_saturating(x))

    with np.errstate(over="ignore"):
        xh = _floats(rng, N).astype(np.float16)
    s = np.array([0.5, 7.0, -1.0], dtype=np.float16)  # element 0 is the scalar
    v = np.float32(3.0)
    _write_case(work, "gated_scale", [xh, s], [N * 2],
                struct.pack("<qii", N, 2, 160) + struct.pack("<f", v) + bytes(12), 2)
    cases["gated_scale"] = _gated_scale(xh, s[0], v)

    a, b = _floats(rng, N), _floats(rng, N)
    b[40:44] = [np.nan, -np.nan, np.nan, 1.0]
    tiling, blocks = _ele_tiling(N, 512, 256)  # a tail of 232 on core 0, 488 on core 1: partial registers
    _write_case(work, "micro_mix", [a, b], [N * 4], tiling, blocks)
    cases["micro_mix"] = _micro_mix(a, b)
    # tiles of 200 floats (as a UT may set by hand): the op's register loop loads whole registers,
    # 56 floats past each tile's end -- legal on device (masked lanes), no finding
    tiling, blocks = _ele_tiling(N, 512, 200)
    _write_case(work, "micro_mix_odd_tile", [a, b], [N * 4], tiling, blocks)
    cases["micro_mix_odd_tile"] = cases["micro_mix"]

    x = np.abs(_floats(rng, N)) / np.float32(50)
    x[:6] = [0.0, 1.0, np.inf, 1e-40, 0.5, 3.0]
    tiling, blocks = _ele_tiling(N, 512, 192)
    _write_case(work, "power_erf", [x], [N * 4, N * 4], tiling + struct.pack("<f4x", np.float32(1.5)), blocks)
    with np.errstate(all="ignore"):
        cases["power_erf"] = (np.power(x.astype(np.float64), 1.5).astype(np.float32),
                              np.array([math.erf(v) for v in x.astype(np.float64)]).astype(np.float32))

    for tag, dtype in TGV2D_DTYPES.items():
        for shape, self_shape in (("same", (N,)), ("brc", (1,))):
            grad, self_ = _tgv2d_inputs(dtype, shape, rng)
            r = BroadcastBaseTiling(threshold_grad_v2_d_dag(dtype), PLATFORM).do_tiling([(N,), self_shape])
            assert r.schedule_mode == 201
            tiling = r.set_scalar(float(THRESHOLD)).tiling_data.to_bytes()
            name = f"tgv2d_{tag}_{shape}"
            _write_case(work, name, [grad, self_], [grad.nbytes], tiling, r.block_dim)
            cases[name] = (_tgv2d_reference(grad, self_), _tgv2d_python(dtype, grad, self_, tiling), r.block_dim)

    # several dimensions: (case, dtype, grad shape, self shape, platform the tiling is sized for, mode)
    small = Platform.custom(16384, 8, "ascend950")  # little UB: a split past axis 0, many tiles
    for name, dtype, gshape, sshape, platform, mode in _multi_dim_cases(small):
        dt = np.dtype(dtype)
        with np.errstate(over="ignore"):
            grad = _floats(rng, math.prod(gshape)).astype(dt).reshape(gshape)
        self_ = (rng.standard_normal(math.prod(sshape)) * 0.5).astype(dt).reshape(sshape)
        self_.reshape(-1)[:2] = [np.nan, 0.25]
        r = BroadcastBaseTiling(threshold_grad_v2_d_dag(dtype), platform).do_tiling([gshape, sshape])
        assert r.schedule_mode == mode
        tiling = r.set_scalar(float(THRESHOLD)).tiling_data.to_bytes()
        out_shape = np.broadcast_shapes(gshape, sshape)
        _write_case(work, name, [grad, self_], [math.prod(out_shape) * dt.itemsize], tiling, r.block_dim)
        with np.errstate(invalid="ignore"):
            s32 = np.broadcast_to(self_.astype(np.float32), out_shape)
            want = np.where(s32 <= THRESHOLD, np.float32(0), np.broadcast_to(grad, out_shape).astype(np.float32))
        python = _tgv2d_python_multi(dtype, grad, self_, out_shape, mode, tiling)
        cases[name] = (want.astype(dt).reshape(-1), python, r.block_dim)

    x = _floats(rng, 32)
    _write_case(work, "brc_utils", [x], [192 * 4], bytes(8), 1)
    cases["brc_utils"] = np.broadcast_to(x.reshape(4, 1, 8), (4, 6, 8)).reshape(-1)

    # by hand, as upstream's UTs write theirs: 11 tiles of 96 on 2 cores (6 and 5, the last 40
    # elements): the broadcast input is duplicated on a core's first two tiles and kept after
    grad, self_ = _tgv2d_inputs("float16", "brc", rng)
    tiling = struct.pack("<5i4x2q16s", 0b10, 0, 96, 40, 2, 6, 5, struct.pack("<f", THRESHOLD))
    _write_case(work, "tgv2d_f16_tiles", [grad, self_], [grad.nbytes], tiling, 2)
    cases["tgv2d_f16_tiles"] = (_tgv2d_reference(grad, self_), _tgv2d_python("float16", grad, self_, tiling), 2)

    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(work), "--json", str(out),
                  "--", "--gtest_filter=atvoss.*"])
    return rc, work, json.loads(out.read_text())["runs"][0]["launches"], cases


def test_the_kernels_run_clean(good):
    rc, _, launches, _ = good
    assert rc == 0
    assert [x["kernel"] for x in launches] == [
        "scaled_diff_f32", "scaled_diff_f16", "scaled_diff_bf16", "cast_two", "gated_scale",
        *(f"tgv2d_{t}" for t in TGV2D_DTYPES for _ in ("same", "brc")),
        "micro_mix", "micro_mix", "power_erf",
        "tgv2d_nd_f32", "tgv2d_nd_f32", "tgv2d_ub102_f16", "tgv2d_ub102_f16", "tgv2d_ub103_f16", "brc_utils",
        "tgv2d_f16"]
    assert all(x["ok"] and x["findings"] == [] for x in launches)
    assert [x["block_dim"] for x in launches[:5]] == [2, 2, 2, 2, 2]


@pytest.mark.parametrize("tag", ["f32", "f16", "bf16"])
def test_scaled_diff_with_a_var_bit_for_bit(good, tag):
    _, work, _, cases = good
    want = cases[f"scaled_diff_{tag}"]
    assert _same_bits(_out(work, f"scaled_diff_{tag}", 0, want.dtype), want)


def test_a_cast_to_two_outputs_bit_for_bit(good):
    _, work, _, cases = good
    half, i32 = cases["cast_two"]
    assert _same_bits(_out(work, "cast_two", 0, np.float16), half)
    assert _same_bits(_out(work, "cast_two", 1, np.int32), i32)


def test_a_tensor_scalar_input_a_scalar_op_and_vars_from_the_tiling(good):
    _, work, _, cases = good
    assert _same_bits(_out(work, "gated_scale", 0, np.float16), cases["gated_scale"])


TGV2D_CASES = [f"tgv2d_{t}_{s}" for t in TGV2D_DTYPES for s in ("same", "brc")] + [
    "tgv2d_f16_tiles", "tgv2d_nd_f32", "tgv2d_nd_f32_split", "tgv2d_ub102_f16", "tgv2d_ub102_f16_grad",
    "tgv2d_ub103_f16"]


@pytest.mark.parametrize("name", TGV2D_CASES)
def test_threshold_grad_v2d_dag_equals_numpy_and_the_python_atvoss(good, name):
    _, work, _, cases = good
    want, python, _ = cases[name]
    got = _out(work, name, 0, want.dtype)
    assert _same_bits(got, want)
    assert got.view(np.uint8).tobytes() == python.view(np.uint8).tobytes()  # the same bits, NaN payloads too


def test_an_op_of_the_dags_own_in_microapi_registers(good):
    """Neg, MulDstAdd (dst * src0 + src1, one rounding), Axpy (two roundings), Div with a
    DivSpecificMode, Log, Compares, NE true for NaN, post-update loads and stores, partial registers
    at the tiles' ends."""
    _, work, _, cases = good
    assert _same_bits(_out(work, "micro_mix", 0, np.float32), cases["micro_mix"])
    assert _same_bits(_out(work, "micro_mix_odd_tile", 0, np.float32), cases["micro_mix"])


def test_high_level_math_as_dag_ops(good):
    """Vec::Power (PowerConfig DOUBLE_FLOAT_TECH: pow in float64 rounded once) and Vec::Erf (float64
    rounded once): docs/cpp-kernels.md, Precision."""
    _, work, _, cases = good
    power, erf = cases["power_erf"]
    assert _same_bits(_out(work, "power_erf", 0, np.float32), power)
    assert _same_bits(_out(work, "power_erf", 1, np.float32), erf)


def test_broadcast_utils_helpers_walk_and_gather_the_blocks(good):
    _, work, _, cases = good
    assert _same_bits(_out(work, "brc_utils", 0, np.float32), cases["brc_utils"])


@pytest.fixture(scope="module")
def bad(tmp_path_factory, runtime):
    work = tmp_path_factory.mktemp("atvoss_bad")
    tiling, blocks = _ele_tiling(256, 256, 256)
    _write_case(work, "overrun", [np.ones(256, np.float32)], [1024], tiling, blocks)
    _write_case(work, "tgv2d_nddma", [np.ones(6, np.float32), np.ones(3, np.float32)], [24], bytes(632), 1)
    out = work / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(work), "--json", str(out),
                  "--", "--gtest_filter=atvoss_bad.*"])
    return rc, json.loads(out.read_text())["runs"][0]["launches"]


def test_a_broadcast_mode_not_modelled_fails_its_launch_by_name(bad):
    _, launches = bad
    launch = next(x for x in launches if x["kernel"] == "tgv2d_nddma")
    assert not launch["ok"]
    assert "BroadcastSch schedule mode 301 is not modelled" in json.dumps(launch)


def test_an_op_writing_past_its_tile_is_found_at_its_line(bad):
    rc, launches = bad
    [launch] = [x for x in launches if x["kernel"] == "overrun"]
    assert rc == 1
    [f] = [f for f in launch["findings"] if f["level"] == "error"]
    assert (f["kind"], f["core"], f["instruction"], f["source"]) == (
        "local_tensor_overflow", 0, "Duplicate", f"test_atvoss_kernels.cpp:{_line('OVERRUN_LINE')}")


# ---- the DAG facts, against the Python atvoss (whose counts reproduce upstream's tiling strings) ----
FACTS_SOURCE = Path(__file__).resolve().parent / "kernels" / "atvoss_dag_facts.cpp"


def _python_dag(name: str):
    from ..atvoss.dags import erfinv_like, hardtanh_grad_like, threshold_v2_like
    family, dtype = name.split("/")
    return {"hardtanh_grad_like": hardtanh_grad_like, "erfinv_like": erfinv_like,
            "threshold_v2_like": threshold_v2_like, "threshold_grad_v2_d": threshold_grad_v2_d_dag}[family](dtype)


@pytest.fixture(scope="module")
def cpp_facts(tmp_path_factory) -> dict:
    import shutil
    import subprocess
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    exe = tmp_path_factory.mktemp("facts") / "facts"
    subprocess.run([cxx, "-std=c++17", f"-I{INCLUDE}", str(FACTS_SOURCE), "-o", str(exe)], check=True)
    return json.loads(subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout)


INCLUDE = Path(__file__).resolve().parents[2] / "opsnn" / "cpudebug" / "include"
FACT_NAMES = ["hardtanh_grad_like/float16", "erfinv_like/float32", "erfinv_like/float16",
              *(f"threshold_v2_like/{t}" for t in ("float16", "int16", "float32", "int32", "int8", "uint8", "int64",
                                                    "bfloat16")),
              *(f"threshold_grad_v2_d/{t}" for t in ("float16", "bfloat16", "float32", "int32", "int8", "uint8"))]


@pytest.mark.parametrize("name", FACT_NAMES)
def test_dag_facts_equal_the_python_atvoss(cpp_facts, name):
    dag = _python_dag(name)
    got = cpp_facts[name]
    want = {"funs": len(dag.fun_list), "buffers": dag.buffer_num(), "cached": dag.buffer_num(True, True),
            "ub_brc": dag.buffer_num(False, True),
            "max": dag.max_dtype_bytes, "min": dag.min_dtype_bytes, "inputs": len(dag.inputs),
            "scalar_inputs": sum(info.scalar for info in dag.inputs.values()), "copy_brc": dag.copy_brc_num,
            "vars": dag.var_num}
    assert got == want


# ---- the host side: ElewiseTiling (opsnn/host/include/atvoss/elewise/elewise_tiling.h) ----
HOST_TILING_SOURCE = Path(__file__).resolve().parent / "kernels" / "atvoss_host_tiling.cpp"
VECTORS = json.loads((Path(__file__).resolve().parents[1] / "atvoss" / "upstream_vectors.json").read_text())


@pytest.fixture(scope="module")
def host_tiling_exe(tmp_path_factory) -> Path:
    import shutil
    import subprocess

    from opsnn.host import build as host_build
    cxx = shutil.which("g++") or shutil.which("c++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    exe = tmp_path_factory.mktemp("host_tiling") / "host_tiling"
    subprocess.run([cxx, *host_build.host_cflags(), f"-I{HOST_TILING_SOURCE.parent}", str(HOST_TILING_SOURCE), "-o",
                    str(exe)], check=True)
    return exe


@pytest.fixture(scope="module")
def host_tiling(host_tiling_exe):
    import subprocess

    def tile(dag: str, ub: int, cores: int, shape) -> bytes | None:
        out = subprocess.run([str(host_tiling_exe), dag, str(ub), str(cores), *map(str, shape)], check=True,
                             capture_output=True, text=True).stdout.strip()
        return None if out == "FAILED" else bytes.fromhex(out)
    return tile


@pytest.mark.parametrize("case", VECTORS["elewise"], ids=[c["case"] for c in VECTORS["elewise"]])
def test_host_elewise_tiling_equals_upstreams_expected_strings(host_tiling, case):
    words = [int(w) for w in case["words"].split()]
    assert host_tiling("hardtanh_grad_like/float16", 245760, 64, case["shape"]) == struct.pack("<10q", *words[:10])


@pytest.mark.parametrize(("dag", "shape"), [
    ("erfinv_like/float32", (1,)), ("erfinv_like/float32", (100003,)), ("erfinv_like/float16", (7, 9999)),
    ("threshold_v2_like/int8", (16777216,)), ("threshold_v2_like/int64", (513,)),
    ("threshold_v2_like/bfloat16", (3, 5, 8199))])
def test_host_elewise_tiling_equals_the_python_atvoss(host_tiling, dag, shape):
    from opsnn.atvoss import ElewiseBaseTiling
    want = ElewiseBaseTiling(_python_dag(dag), PLATFORM).do_tiling(shape).to_bytes()
    assert host_tiling(dag, PLATFORM.ub_size, PLATFORM.aiv_cores, shape) == want


def test_host_elewise_tiling_refuses_an_empty_dim(host_tiling):
    assert host_tiling("erfinv_like/float32", 245760, 64, (4, 0)) is None


def _brc(host_tiling_exe, dag: str, out, *ins, ub=245760, cores=64):
    import subprocess
    text = subprocess.run([str(host_tiling_exe), "brc", dag, str(ub), str(cores),
                           *(",".join(map(str, s)) for s in (out, *ins))], check=True, capture_output=True,
                          text=True).stdout.split()
    return None if text == ["FAILED"] else (int(text[0]), bytes.fromhex(text[1]))


BRC_CASES = [  # (dtype, output, inputs): one dim, UB broadcast, NDDMA, a scalar input, a dropped axis
    ("float32", (1000,), (1000,), (1000,)), ("float32", (1_000_000,), (1_000_000,), (1,)),
    ("float16", (16_777_216,), (16_777_216,), (16_777_216,)), ("int8", (7,), (7,), (1,)),
    ("float16", (1024, 512), (1024, 512), (1024, 1)), ("float16", (8, 32, 16), (8, 1, 16), (1, 32, 16)),
    ("float32", (1024, 512), (1024, 512), (1024, 1)), ("float16", (2, 3), (2, 3), (3,)),
    ("int8", (8, 32, 16), (8, 1, 16), (1, 32, 16)), ("float32", (6, 1, 5, 300), (6, 1, 5, 300), (6, 1, 1, 300)),
    ("float32", (9, 5, 7, 40), (9, 1, 7, 40), (1, 5, 7, 1))]


@pytest.mark.parametrize(("dtype", "out", "a", "b"), BRC_CASES)
def test_host_broadcast_tiling_equals_the_python_atvoss(host_tiling_exe, dtype, out, a, b):
    from opsnn.atvoss import BroadcastBaseTiling
    r = BroadcastBaseTiling(threshold_grad_v2_d_dag(dtype), PLATFORM).do_tiling([a, b], out)
    assert _brc(host_tiling_exe, f"threshold_grad_v2_d/{dtype}", out, a, b) == (r.schedule_mode,
                                                                                r.tiling_data.to_bytes())


@pytest.mark.parametrize(("n", "b", "want"), [  # (dimLen, tileNum, blockNum, scalarFlag), derived by hand
    (1000, 1000, (1000, 128, 4, 0)),  # 64 cores x 128 elements > n: 128-element tiles, 2 a core
    (100_000, 1, (100_000, 1536, 33, 2)),  # 64 x 10240 > n: n / 64 in 128-element units
    (1_000_000, 1_000_000, (1_000_000, 10240, 49, 0))])  # 245760 / 6 buffers in 512-byte units
def test_host_one_dim_advance_tiling(host_tiling_exe, n, b, want):
    """A DAG with no Var and three GM tensors takes schedule 202: BroadcastOneDimTilingDataAdvance."""
    mode, raw = _brc(host_tiling_exe, "mul_brc/float32", (n,), (n,), (b,))
    assert (mode, struct.unpack("<qihh", raw)) == (202, want)


def test_host_broadcast_tiling_refuses_shapes_that_do_not_broadcast(host_tiling_exe):
    assert _brc(host_tiling_exe, "threshold_grad_v2_d/float32", (4, 6), (4, 6), (4, 5)) is None
