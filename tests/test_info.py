"""`opsnn info` (what the installation runs on) and the errors of an engine asked for but missing:
a C lane that was not built, numba not installed (simulated by blocking the import in a subprocess)."""
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
NO_C_LANE = "import sys; sys.modules['opsnn.backends._select'] = None\n"  # import raises ImportError, as unbuilt
NO_NUMBA = "import sys; sys.modules['numba'] = None\n"
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
    for name in ("numba", "torch", "dask", "distributed", "matplotlib", "ml_dtypes"):
        try:
            expected[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            expected[name] = None
    assert got["packages"] == expected
    assert got["cpu"]["cores"] == os.cpu_count() and got["cpu"]["model"]
    general = "numba" if expected["numba"] else "numpy"
    if got["c_lane"]["built"]:
        assert got["fast_engine"] == {"variable": None, "express_lane": "c", "general": general, "error": None}
        assert got["c_lane"]["path"].endswith(".so") or got["c_lane"]["path"].endswith(".pyd")
    else:
        assert shutil.which("cc") is None and shutil.which("gcc") is None, "a compiler is here: the lane is not built"


def test_text_says_loudly_that_the_c_lane_is_missing_and_how_to_build_it():
    done = opsnn_info(prelude=NO_C_LANE)
    assert done.returncode == 0, done.stderr
    (line,) = [s for s in done.stdout.splitlines() if s.startswith("C lane ")]
    assert line.startswith("C lane      NOT BUILT: ") and C_FIX in line
    (engine,) = [s for s in done.stdout.splitlines() if s.startswith("fast engine ")]
    try:
        importlib.metadata.version("numba")
        lane, general = "numba", "numba"
    except importlib.metadata.PackageNotFoundError:
        lane, general = "none (numpy engine)", "numpy"
    assert engine == f"fast engine express lane: {lane}, other layouts: {general} (OPSNN_FAST_ENGINE unset: auto)"


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


def test_engine_c_without_the_c_lane_is_an_error_naming_the_variable_and_the_fix():
    done = python(NO_C_LANE + CALL, OPSNN_FAST_ENGINE="c")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: OPSNN_FAST_ENGINE=c needs the C express lane (opsnn.backends._select), "
                    f"which this installation does not have: {C_FIX}, or unset OPSNN_FAST_ENGINE")
    done = opsnn_info(prelude=NO_C_LANE, OPSNN_FAST_ENGINE="c")  # info says the same, and still reports
    assert done.returncode == 0 and f"fast engine ERROR (OPSNN_FAST_ENGINE=c): {last[len('ImportError: '):]}" \
        in done.stdout.splitlines()


def test_engine_numba_without_numba_is_an_error_naming_the_variable_and_the_fix():
    done = python(NO_NUMBA + CALL, OPSNN_FAST_ENGINE="numba")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ImportError: OPSNN_FAST_ENGINE=numba needs numba (opsnn.backends.numba_kernels), which cannot be "
        "imported: pip install 'opsnn[fast]', or unset OPSNN_FAST_ENGINE")


@pytest.mark.parametrize("prelude", [NO_C_LANE, NO_NUMBA, NO_C_LANE + NO_NUMBA])
def test_auto_goes_on_without_what_is_missing(prelude):
    done = python(prelude + CALL + "; print(opsnn.threshold_backward(a, a, 2.0)[:2])")
    assert done.returncode == 0 and done.stdout == "[0. 0.]\n", done.stderr
