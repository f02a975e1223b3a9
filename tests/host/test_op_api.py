"""The host twin's op_api side (opsnn/host/include/opdev, src/opdev, src/nnopbase, src/acl): opsnn's
own op_api test operator (tests/host/op_api/demo) and its op_api UT, built and run by `opsnn ut`;
the l0 Cast's bits against opsnn's emulator's conversion rules; the op_api UT plan
(opsnn/host/ut_op_api.py). Without upstream's tree; upstream's own op_api UTs are opt-in
(OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout>)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.rounding import RoundMode, to_int
from opsnn.capi.build import compiler
from opsnn.cpudebug import build as kt_build
from opsnn.dtypes import bfloat16
from opsnn.host import build as host_build
from opsnn.host import ut_op_api

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "op_api"
DEMO = HERE / "demo"
DEMO_UT = DEMO / "tests" / "ut" / "op_api" / "test_aclnn_demo.cpp"


@pytest.fixture(scope="module")
def host_library() -> Path:
    try:
        return host_build.build()
    except (kt_build.BuildUnavailable, RuntimeError) as e:
        pytest.skip(f"the host twin cannot be built here: {e}")


# ---- the op_api UT plan ----

def test_plan_of_a_test_outside_a_checkout_builds_its_operators_op_api_with_opsnns_headers():
    plan = ut_op_api.plan(DEMO_UT, [], [])
    assert plan.sources == [DEMO_UT, DEMO / "op_api" / "aclnn_demo.cpp", DEMO / "op_api" / "demo_scale.cpp"]
    assert plan.include_dirs[:len(host_build.include_dirs())] == host_build.include_dirs()
    assert plan.include_dirs[-1] == ut_op_api.FALLBACK_INCLUDE  # a checkout's declarations come before it
    assert DEMO / "op_api" in plan.include_dirs
    assert "-fno-access-control" in plan.cflags and "-lgtest_main" in plan.libs


def _op(root: Path, name: str, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / name / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / name


def test_l0_ops_reached_by_relative_include_are_built_transitively(tmp_path):
    a = _op(tmp_path, "a", {"op_api/aclnn_a.cpp": '#include "../../b/op_api/b.h"\n', "op_api/a.h": ""})
    _op(tmp_path, "b", {"op_api/b.h": '#include "../../c/op_api/c.h"\n', "op_api/b.cpp": '#include "b.h"\n'})
    _op(tmp_path, "c", {"op_api/c.h": "", "op_api/c.cpp": "", "op_api/aclnn_c.cpp": ""})
    deps = ut_op_api.l0_dependencies([a / "op_api" / "aclnn_a.cpp"])
    # b.cpp for b.h, then c.cpp for the c.h b.h includes; never c's own aclnn API
    assert deps == [(tmp_path / "b" / "op_api" / "b.cpp").resolve(), (tmp_path / "c" / "op_api" / "c.cpp").resolve()]


def test_level2_headers_forward_to_the_operators_own(tmp_path):
    op = _op(tmp_path, "x", {"op_api/aclnn_x.h": "#define X_H 1\n",
                             "tests/ut/op_api/test_aclnn_x.cpp": '#include "level2/aclnn_x.h"\n'})
    test = op / "tests" / "ut" / "op_api" / "test_aclnn_x.cpp"
    level2 = ut_op_api.level2_dir(test, ut_op_api.operator_of_test(test), None)
    assert (level2 / "level2" / "aclnn_x.h").read_text().endswith(f'#include "{op / "op_api" / "aclnn_x.h"}"\n')
    test.write_text('#include "level2/aclnn_missing.h"\n')
    with pytest.raises(ValueError, match="aclnn_missing.h, which no operator's op_api folder has"):
        ut_op_api.level2_dir(test, ut_op_api.operator_of_test(test), None)


def test_an_aclnn_test_kept_under_op_host_belongs_to_its_operator(tmp_path):
    # upstream mish_grad_v2 keeps test_aclnn_mish_backward.cpp in tests/ut/op_host; tests/ut holds an
    # op_host/ folder too, which must not be taken for the operator folder
    op = _op(tmp_path, "m", {"op_host/op_api/aclnn_m.cpp": "", "op_host/m_def.cpp": "",
                             "tests/ut/op_host/test_aclnn_m.cpp": "", "tests/ut/op_api/test_aclnn_m.cpp": ""})
    for layer in ("op_host", "op_api"):
        found = ut_op_api.operator_of_test(op / "tests" / "ut" / layer / "test_aclnn_m.cpp")
        assert found is not None and found.root == op


# ---- opsnn's own op_api UT, through `opsnn ut` ----

def test_demo_op_api_ut_passes_under_opsnn_ut(host_library, tmp_path):
    from opsnn.cpudebug import ut
    out = tmp_path / "r.json"
    status = ut.main([str(DEMO_UT), "--json", str(out)])
    doc = json.loads(out.read_text())
    assert doc["layer"] == "op_api"
    assert status == 0, doc


# ---- the l0 Cast's bits against the emulator's rules (opsnn/ascendc/cast.py, rounding.py) ----

ACL = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "int64": 9, "bfloat16": 27}


@pytest.fixture(scope="module")
def cast_probe(host_library, tmp_path_factory) -> Path:
    exe = tmp_path_factory.mktemp("probe") / "cast_probe"
    cmd = [*compiler(), *host_build.host_cflags(), f"-I{HERE}", f"-I{ut_op_api.FALLBACK_INCLUDE}", "-O1",
           str(HERE / "cast_probe.cpp"), *(str(DEMO / "op_api" / f) for f in ("aclnn_demo.cpp", "demo_scale.cpp")),
           "-o", str(exe), *host_build.host_libs()]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return exe


def _run_cast(probe: Path, values: np.ndarray, dst, tmp_path: Path) -> np.ndarray:
    src_name, dst_name = np.dtype(values.dtype).name, np.dtype(dst).name
    (tmp_path / "in.bin").write_bytes(values.tobytes())
    env = dict(os.environ, OPSNN_KT_PYTHON=sys.executable,
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p))
    done = subprocess.run([str(probe), str(ACL[src_name]), str(ACL[dst_name]), str(values.size),
                           str(tmp_path / "in.bin"), str(tmp_path / "out.bin")], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return np.frombuffer((tmp_path / "out.bin").read_bytes(), dtype=dst)


def _float32_cases(n: int = 4096) -> np.ndarray:
    rng = np.random.default_rng(20261206)
    bits = rng.integers(0, 2 ** 32, size=n, dtype=np.uint64).astype(np.uint32)
    special = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x00000001,
                        0x3F800000, 0x477FE000, 0x477FF000, 0x33800000, 0x33000000, 0x4B800001, 0x3F808000,
                        0x3F818000, 0x7F7FFFFF, 0x43000000, 0xC3010000, 0x4F000000, 0xCF000000], dtype=np.uint32)
    scaled = (rng.standard_normal(n) * rng.choice([1e-6, 1.0, 300.0, 7e4, 3e9], size=n)).astype(np.float32)
    return np.concatenate([special, bits, scaled.view(np.uint32)]).view(np.float32)


@pytest.mark.parametrize("dst", [np.float16, bfloat16])
def test_float_narrowing_equals_the_emulators_bits(cast_probe, tmp_path, dst):
    x = _float32_cases()
    got = _run_cast(cast_probe, x, dst, tmp_path)
    want = cast_values(x, np.dtype(dst), RoundMode.CAST_RINT)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("src", [np.float16, bfloat16])
def test_float_widening_is_exact_nan_bits_included(cast_probe, tmp_path, src):
    bits = np.arange(0, 2 ** 16, 7, dtype=np.uint32).astype(np.uint16)
    x = bits.view(src)
    got = _run_cast(cast_probe, x, np.float32, tmp_path)
    want = cast_values(x, np.dtype(np.float32), RoundMode.CAST_NONE)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("dst", [np.int8, np.uint8, np.int16, np.int32, np.int64])
def test_float_to_integer_truncates_and_saturates(cast_probe, tmp_path, dst):
    x = _float32_cases(1024)
    got = _run_cast(cast_probe, x, dst, tmp_path)
    with np.errstate(invalid="ignore"):  # a signalling NaN widened to float64 warns; its result is 0 either way
        want = to_int(x, np.dtype(dst), RoundMode.CAST_TRUNC)
    np.testing.assert_array_equal(got, want)


def test_integer_casts_saturate_and_round_once(cast_probe, tmp_path):
    rng = np.random.default_rng(7)
    i32 = np.concatenate([np.array([2 ** 31 - 1, -2 ** 31, 200, -200, 16777217, -16777219], np.int32),
                          rng.integers(-2 ** 31, 2 ** 31, 2000).astype(np.int32)])
    np.testing.assert_array_equal(_run_cast(cast_probe, i32, np.int16, tmp_path),
                                  cast_values(i32, np.dtype(np.int16), RoundMode.CAST_NONE))
    np.testing.assert_array_equal(_run_cast(cast_probe, i32, np.float32, tmp_path).view(np.uint32),
                                  cast_values(i32, np.dtype(np.float32), RoundMode.CAST_RINT).view(np.uint32))
    i64 = np.concatenate([np.array([2 ** 63 - 1, -2 ** 63, 2 ** 53 + 1, 2 ** 24 + 1], np.int64),
                          rng.integers(-2 ** 63, 2 ** 63 - 1, 2000, dtype=np.int64)])
    np.testing.assert_array_equal(_run_cast(cast_probe, i64, np.float32, tmp_path).view(np.uint32),
                                  cast_values(i64, np.dtype(np.float32), RoundMode.CAST_RINT).view(np.uint32))


# ---- upstream's own op_api UTs (opt-in: OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout>) ----

UPSTREAM = Path(os.environ.get("OPSNN_UPSTREAM_OPS_NN") or "/nonexistent") / "experimental" / "activation"
needs_upstream = pytest.mark.skipif(not (UPSTREAM / "hardtanh_grad").is_dir(),
                                    reason="OPSNN_UPSTREAM_OPS_NN=<ops-nn checkout> not set")


@needs_upstream
def test_upstream_op_api_ut_passes_unchanged(host_library, tmp_path):
    """hardtanh_grad's op_api UT: the checkout's op_error_check.h and op_api_ut_common, dtype
    promotion, Contiguous / Cast / ViewCopy recorded by opsnn's l0 ops."""
    from opsnn.cpudebug import ut
    test = UPSTREAM / "hardtanh_grad" / "tests" / "ut" / "op_api" / "test_aclnn_hardtanh_backward.cpp"
    out = tmp_path / "r.json"
    assert ut.main([str(test), "--json", str(out)]) == 0
    assert json.loads(out.read_text())["layer"] == "op_api"


@needs_upstream
def test_upstream_seed_op_api_ut_does_not_compile_as_written(host_library, capfd):
    """threshold_grad_v2_d's op_api UT calls op::SetPlatformSocVersion (opbase has no such free
    function; upstream's UT stub has it only as SocVersionManager's private member) and declares
    outDesc twice: a toolkit build fails on both lines too."""
    from opsnn.cpudebug import ut
    test = UPSTREAM / "threshold_grad_v2_d" / "tests" / "ut" / "op_api" / "test_aclnn_threshold_grad_v2_d.cpp"
    assert ut.main([str(test)]) == 2
    err = capfd.readouterr().err
    assert "'SetPlatformSocVersion' is not a member of 'op'" in err.replace("\u2018", "'").replace("\u2019", "'")
    assert "conflicting declaration" in err
