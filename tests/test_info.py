"""`opsnn info` (what the installation runs on) and the errors of an engine asked for but missing or
unknown: a C engine that was not built (simulated by blocking the import in a subprocess), numba
(no longer an engine: numba is gone from opsnn, whether or not it is installed)."""
from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import opsnn
from opsnn import info

CLEAN = {k: v for k, v in os.environ.items() if k not in ("OPSNN_FAST_ENGINE", "OPSNN_NUM_THREADS", "OMP_NUM_THREADS")}
NO_C_LANE = "import sys; sys.modules['opsnn.engine._select'] = None\n"  # import raises ImportError, as unbuilt
NO_NUMBA = "import sys; sys.modules['numba'] = None\n"  # opsnn must not need it (nor use it where it is)
C_FIX = "install a C compiler and the Python headers (e.g. apt install gcc python3-dev) and reinstall opsnn"


def python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**CLEAN, **env},
                          timeout=120)


def opsnn_info(*args, prelude: str = "", **env) -> subprocess.CompletedProcess:
    return python(prelude + f"from opsnn.cli import main; raise SystemExit(main(['info', *{list(args)!r}]))", **env)


def test_json_states_versions_engine_threads_and_cpu():
    done = opsnn_info("--json", OPSNN_NUM_THREADS="3")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert (got["opsnn"], got["numpy"], got["python_executable"]) == (opsnn.__version__, np.__version__, sys.executable)
    assert got["threads"] == 3
    expected = {}
    for name in ("torch", "dask", "distributed", "matplotlib", "ml_dtypes"):
        try:
            expected[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            expected[name] = None
    assert got["packages"] == expected
    assert got["cpu"]["cores"] == os.cpu_count() and got["cpu"]["model"]
    assert "numba" not in got["packages"]
    if got["c_lane"]["built"]:
        assert got["fast_engine"] == {"variable": None, "engine": "c", "error": None}
        assert got["c_lane"]["path"].endswith(".so") or got["c_lane"]["path"].endswith(".pyd")
    else:
        assert shutil.which("cc") is None and shutil.which("gcc") is None, "a compiler is here: the lane is not built"
        assert got["fast_engine"] == {"variable": None, "engine": "numpy", "error": None}


def test_json_names_the_engine_asked_for():
    done = opsnn_info("--json", OPSNN_FAST_ENGINE="numpy")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["fast_engine"] == {"variable": "numpy", "engine": "numpy", "error": None}
    done = opsnn_info("--json", prelude=NO_C_LANE)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["fast_engine"] == {"variable": None, "engine": "numpy", "error": None}
    assert got["c_lane"]["built"] is False and got["c_lane"]["path"] is None


@pytest.mark.skipif(not info.collect()["c_lane"]["built"], reason="the C engine was not built here")
def test_text_names_the_c_engine_in_use():
    done = opsnn_info()
    assert done.returncode == 0, done.stderr
    (engine,) = [s for s in done.stdout.splitlines() if s.startswith("fast engine ")]
    assert engine == "fast engine C (every layout) (OPSNN_FAST_ENGINE unset: auto)"
    done = opsnn_info(OPSNN_FAST_ENGINE="numpy")
    (engine,) = [s for s in done.stdout.splitlines() if s.startswith("fast engine ")]
    assert engine == "fast engine numpy (every layout; the C engine is not in use) (OPSNN_FAST_ENGINE=numpy)"


def test_text_says_loudly_that_the_c_lane_is_missing_and_how_to_build_it():
    done = opsnn_info(prelude=NO_C_LANE)
    assert done.returncode == 0, done.stderr
    (line,) = [s for s in done.stdout.splitlines() if s.startswith("C lane ")]
    assert line.startswith("C lane      NOT BUILT: every call runs on the numpy engine (5-70x slower) instead; "
                           f"to build it, {C_FIX}")
    (engine,) = [s for s in done.stdout.splitlines() if s.startswith("fast engine ")]
    assert engine == "fast engine numpy (every layout; the C engine is not in use) (OPSNN_FAST_ENGINE unset: auto)"
    assert not [s for s in done.stdout.splitlines() if s.startswith("numba")]


def test_text_names_the_extra_of_a_package_not_installed():
    got = info.collect()
    got["packages"]["torch"] = None
    got["packages"]["ml_dtypes"] = None  # a dependency, no extra to name
    lines = info.format_text(got).splitlines()
    assert "torch       not installed (pip install 'opsnn[torch]')" in lines
    assert "ml_dtypes   not installed" in lines


def test_bad_argument_is_one_line_and_exit_2():
    done = opsnn_info("--verbose")
    assert done.returncode == 2 and done.stderr == "opsnn info: error: unrecognized arguments: --verbose\n"


def test_clones_are_read_from_the_symbols_and_the_cpu_flags_pick_one(tmp_path):
    so = tmp_path / "lane.so"
    so.write_bytes(b"\x7fELF\x00plain8.default\x00plain8.avx2\x00plain8.resolver\x00one16.arch_x86_64_v4\x00")
    v4 = {"avx2", "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}
    assert info._clones(str(so), v4) == (["x86-64-v4", "avx2", "default"], "x86-64-v4")
    assert info._clones(str(so), {"avx2", "avx512f"}) == (["x86-64-v4", "avx2", "default"], "avx2")
    assert info._clones(str(so), set()) == (["x86-64-v4", "avx2", "default"], "default")
    assert info._clones(str(so), None) == (["x86-64-v4", "avx2", "default"], None)
    so.write_bytes(b"\x7fELF\x00stripped\x00")
    assert info._clones(str(so), v4) == (None, None)


CALL = "import numpy as np, opsnn; a = np.ones(8, np.float32); opsnn.threshold_backward(a, a, 0.5)"


def test_engine_c_without_the_c_engine_is_a_one_line_error_naming_the_variable_and_the_fix():
    done = python(NO_C_LANE + CALL, OPSNN_FAST_ENGINE="c")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: OPSNN_FAST_ENGINE=c needs the C engine (opsnn.engine._select), "
                    f"which this installation does not have: {C_FIX}, or unset OPSNN_FAST_ENGINE")
    assert "During handling" not in done.stderr  # raised from None: one error, not a chain
    done = opsnn_info(prelude=NO_C_LANE, OPSNN_FAST_ENGINE="c")  # info says the same, and still reports
    assert done.returncode == 0 and f"fast engine ERROR (OPSNN_FAST_ENGINE=c): {last[len('ImportError: '):]}" \
        in done.stdout.splitlines()


@pytest.mark.parametrize("prelude", ["", NO_NUMBA])
def test_engine_numba_is_unknown_whether_or_not_numba_is_installed(prelude):
    done = python(prelude + CALL, OPSNN_FAST_ENGINE="numba")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == "ValueError: unknown fast engine 'numba'; known: auto, c, numpy"
    done = opsnn_info(prelude=prelude, OPSNN_FAST_ENGINE="numba")  # info says the same, and still reports
    assert done.returncode == 0, done.stderr
    assert "fast engine ERROR (OPSNN_FAST_ENGINE=numba): unknown fast engine 'numba'; known: auto, c, numpy" \
        in done.stdout.splitlines()


@pytest.mark.parametrize("prelude", [NO_C_LANE, NO_NUMBA, NO_C_LANE + NO_NUMBA])
def test_auto_goes_on_without_what_is_missing(prelude):
    done = python(prelude + CALL + "; print(opsnn.threshold_backward(a, a, 2.0)[:2],"
                  " opsnn.threshold_backward(a[::-2], a[::2], 0.5)[:2])")
    assert done.returncode == 0 and done.stdout == "[0. 0.] [1. 1.]\n", done.stderr
