"""Packaging: extras, a wheel that builds and works from a clean venv, python -m opsnn, py.typed,
and `import opsnn` pulling in none of the optional integrations."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
IGNORE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                ".ruff_cache", ".hypothesis", "benchmarks")


def run(*cmd, timeout=300, **kw):
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, **kw)


def test_extras():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"torch", "dask", "plot", "all", "test"} <= set(extras)
    assert "fast" not in extras  # numba's extra: the fast path compiles nothing at run time now
    names = {e: {r.split("[")[0].split("=")[0].split(">")[0].strip() for r in reqs} for e, reqs in extras.items()}
    assert names["torch"] == {"torch"} and names["plot"] == {"matplotlib"}
    assert names["dask"] == {"dask", "distributed"}
    assert "dask[array]" in " ".join(extras["dask"])
    assert extras["all"] == ["opsnn[torch,dask,plot]"]
    assert not any({"numba", "llvmlite"} & n for n in names.values())
    assert not any(r.split("[")[0].split("=")[0].split(">")[0].strip() in ("numba", "llvmlite")
                   for r in PYPROJECT["project"]["dependencies"])
    assert {"torch", "dask", "distributed", "matplotlib", "build", "pytest"} <= names["test"]


def test_import_opsnn_imports_no_integration():
    code = ("import sys, opsnn, opsnn.dask, opsnn.plots; "
            "print(*(m in sys.modules for m in ('torch', 'dask', 'distributed', 'matplotlib')))")
    assert run(sys.executable, "-c", code, check=True).stdout.split() == ["False"] * 4


def test_python_dash_m():
    r = run(sys.executable, "-m", "opsnn", "--help", cwd=ROOT)
    assert r.returncode == 0 and r.stdout.startswith("usage: opsnn")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    pytest.importorskip("build")
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=IGNORE)  # build outside the checkout: no build/ or egg-info left there
    r = run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp / "dist", src)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (path,) = (tmp / "dist").glob("opsnn-*.whl")
    return path


def test_wheel_contents(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("opsnn/py.typed", "opsnn/__main__.py", "opsnn/torch/__init__.py", "opsnn/dask.py", "opsnn/plots.py",
              "opsnn/api.py", "opsnn/cli.py",
              # the C ABI's sources and static headers (`python -m opsnn.capi build` after a wheel install)
              "opsnn/capi/src/capi.cpp", "opsnn/capi/src/capi_internal.h", "opsnn/capi/include/acl/acl.h",
              "opsnn/capi/include/aclnn/aclnn_base.h", "opsnn/capi/include/aclnnop/aclnn_util.h",
              "opsnn/capi/cmake/opsnnConfig.cmake", "opsnn/capi/pkgconfig/opsnn.pc",
              # the upstream-style C++ example programs, beside the Python ones
              "opsnn/activation/threshold_grad_v2_d/examples/test_aclnn_threshold_backward.cpp",
              "opsnn/activation/threshold_v2/examples/test_aclnn_threshold.cpp",
              # the CPU-debug runtime's headers and C side (opsnn ut), and an operator's C++ kernel
              "opsnn/cpudebug/include/kernel_operator.h", "opsnn/cpudebug/include/tikicpulib.h",
              "opsnn/cpudebug/include/opsnn_kt/instructions.h", "opsnn/cpudebug/src/runtime.cpp",
              "opsnn/activation/threshold_grad_v2_d/op_kernel/threshold_grad_v2_d.cpp",
              "opsnn/activation/threshold_grad_v2_d/op_kernel/threshold_grad_v2_d.h"):
        assert f in names, f
    assert not any("/tests/" in n for n in names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    for extra in ("torch", "dask", "plot", "all", "test"):
        assert f"Provides-Extra: {extra}" in text
    assert "Provides-Extra: fast" not in text and "numba" not in text.split("\n\n")[0]  # the headers
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "opsnn = opsnn.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_wheel_in_a_clean_venv(wheel, tmp_path):
    venv = tmp_path / "venv"
    r = run(sys.executable, "-m", "venv", "--without-pip", venv)
    assert r.returncode == 0, r.stderr
    py = venv / "bin" / "python"
    r = run(sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index", "-q", wheel)
    assert r.returncode == 0, r.stdout + r.stderr
    # the runtime dependencies (numpy, ml_dtypes) from this environment, offline; only the clean venv's
    # own site-packages holds opsnn (this environment's editable opsnn is not activated by a path entry)
    site = Path(run(py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())
    (site / "_deps_from_dev_env.pth").write_text(sysconfig.get_path("purelib") + "\n")
    where = run(py, "-c", "import opsnn, pathlib; print(pathlib.Path(opsnn.__file__).parent)", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    installed = Path(where.stdout.strip())
    assert installed == site / "opsnn" and (installed / "py.typed").is_file()
    for cmd in ([venv / "bin" / "opsnn", "--help"], [py, "-m", "opsnn", "--help"]):
        r = run(*cmd, cwd=tmp_path)
        assert r.returncode == 0 and r.stdout.startswith("usage: opsnn"), r.stdout + r.stderr
    r = run(venv / "bin" / "opsnn", "tiling", "threshold_grad_v2_d", "--shape", "2,2", cwd=tmp_path)
    assert r.returncode == 0 and "block_dim" in r.stdout, r.stdout + r.stderr
    r = run(venv / "bin" / "opsnn", "example", "threshold_grad_v2_d", cwd=tmp_path)  # shipped in the wheel
    assert r.returncode == 0 and "result[3] is: 4.200000" in r.stdout, r.stdout + r.stderr
    r = run(venv / "bin" / "opsnn", "info", "--json", cwd=tmp_path)  # says what the wheel brought
    assert r.returncode == 0, r.stdout + r.stderr
    lane = json.loads(r.stdout)["c_lane"]
    shipped = any(n.startswith("opsnn/engine/_select.") for n in zipfile.ZipFile(wheel).namelist())
    assert lane["built"] is shipped and (not shipped or Path(lane["path"]).parent == installed / "engine")


def test_a_c_lane_that_fails_to_build_is_a_loud_warning_and_the_install_goes_on(tmp_path):
    pytest.importorskip("setuptools")
    for f in ("setup.py", "pyproject.toml", "README.md", "opsnn/engine/_select.c"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / f, tmp_path / f)
    env = {**os.environ, "CC": "false"}  # a compiler that always fails, as a missing gcc or Python.h would
    r = run(sys.executable, "setup.py", "-q", "build_ext", "--inplace", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "WARNING: opsnn's C engine (opsnn/engine/_select.c) was NOT built:" in r.stderr
    assert "every fast-path call then runs on the numpy" in r.stderr and "numba" not in r.stderr
    assert "apt install gcc python3-dev" in r.stderr and "`opsnn info` says whether it is built." in r.stderr
    assert not list((tmp_path / "opsnn" / "engine").glob("_select*.so"))


def test_make_demo_installs_the_package_alone_and_make_test_then_adds_the_test_extras(tmp_path):
    if shutil.which("make") is None:
        pytest.skip("no make")
    for f in ("Makefile", "pyproject.toml", "setup.py", "opsnn/engine/_select.c"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / f, tmp_path / f)
    bin_dir = tmp_path / "venv" / "bin"  # a venv whose python and opsnn only log how they are called
    bin_dir.mkdir(parents=True)
    for tool, says in (("python", ""), ("opsnn", "echo 'C lane      built'")):
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> "{tmp_path}/log"\n{says}\n')
        (bin_dir / tool).chmod(0o755)

    def make(target):
        r = run("make", "-s", "VENV=venv", target, cwd=tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        log = (tmp_path / "log").read_text().splitlines()
        (tmp_path / "log").unlink()
        return log

    installs = lambda log: [line for line in log if "pip install" in line and "--upgrade pip" not in line]  # noqa: E731
    demo = make("demo")
    assert installs(demo) == ["python -m pip install -q -e ."] and demo[-1] == "opsnn example"
    assert "opsnn info" in demo  # the install says whether the C lane was built
    test = make("test")
    assert installs(test) == ["python -m pip install -q -e .[test]"] and test[-1] == "python -m pytest"
    assert make("demo") == ["opsnn example"]  # the test install holds the package too


@pytest.mark.parametrize(("module", "missing", "message"), [
    ("opsnn.torch", "torch", "opsnn.torch needs PyTorch: pip install 'opsnn[torch]'"),
    ("opsnn.dask", "dask", "opsnn.dask needs dask: pip install 'opsnn[dask]'"),
])
def test_an_integration_without_its_package_says_which_extra_to_install_at_import(module, missing, message):
    code = f"import sys; sys.modules[{missing!r}] = None\nimport {module}"  # as if not installed
    r = run(sys.executable, "-c", code)
    assert r.returncode == 1 and r.stderr.strip().splitlines()[-1] == f"ImportError: {message}", r.stderr


def test_a_broken_torch_is_its_own_error_not_the_install_hint():
    code = "import sys; sys.modules['torch._C'] = None\nimport opsnn.torch"  # installed, but cannot load
    r = run(sys.executable, "-c", code)
    assert r.returncode == 1 and "opsnn[torch]" not in r.stderr and "torch._C" in r.stderr, r.stderr


def test_the_demo_needs_only_the_packages_own_dependencies():
    # what `make demo` runs, in a process where every test extra's package is missing
    code = ("import sys\n"
            "for m in ('torch', 'dask', 'distributed', 'matplotlib', 'hypothesis', 'pytest', 'ruff'):\n"
            "    sys.modules[m] = None\n"
            "from opsnn.cli import main\nraise SystemExit(main(['example']))")
    r = run(sys.executable, "-c", code)
    assert r.returncode == 0 and "result[3] is: 4.200000" in r.stdout, r.stdout + r.stderr
