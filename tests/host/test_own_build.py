"""One's own build of what `opsnn run` builds (opsnn/host/flags.py): `python -m opsnn.capi
--host-cflags/--host-libs/--host-sources --op-dir DIR` on a g++ line, and the CMake package
(find_package(opsnn_host), opsnn_host_add_operator); the program finds its kernels through the
manifest source the sources list, without OPSNN_HOST_KERNELS."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import opsnn

REPO = Path(__file__).resolve().parents[2]
OWN = REPO / "opsnn" / "activation" / "threshold_grad_v2_d"
EXAMPLE = Path(__file__).resolve().parent / "cpp" / "threshold_example.cpp"


pytestmark = pytest.mark.usefixtures("host_twin")  # tests/host/conftest.py


def flags(*which: str) -> tuple[int, list[str], str]:
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", *which], capture_output=True, text=True)
    return done.returncode, done.stdout.split(), done.stderr


def program_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPSNN_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


def expected(n: int) -> np.ndarray:
    i = np.arange(n, dtype=np.float32)
    grad = i * np.float32(0.25) - np.float32(7)
    self = (np.arange(n) % 11).astype(np.float32) * np.float32(0.5) - np.float32(2)
    return opsnn.threshold_backward(grad, self, 0.75, semantics="ascend910b")


def check_program(exe: Path) -> None:
    done = subprocess.run([str(exe), "700"], capture_output=True, text=True, env=program_env(), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    got = np.array([float(x) for x in done.stdout.split()], np.float32)
    assert np.array_equal(got.view(np.uint32), expected(700).view(np.uint32))


def test_the_flags_build_the_example_with_the_folder(tmp_path):
    rc, sources, _ = flags("--host-sources", "--op-dir", str(OWN))
    assert rc == 0
    names = [Path(s).name for s in sources]
    assert "threshold_grad_v2_d_tiling.cpp" in names and "relu_grad.cpp" in names  # its dependency's too
    assert names[-1] == "opsnn_host_manifest.cpp"
    rc, cflags, _ = flags("--host-cflags", "--op-dir", str(OWN))
    assert rc == 0 and cflags[0] == "-std=c++17"
    assert any(f.endswith("/include") and (Path(f[2:]) / "aclnnop" / "aclnn_threshold_backward.h").is_file()
               for f in cflags)  # the staged aclnnop/ headers
    _, libs, _ = flags("--host-libs")
    assert "-lopsnn_host" in libs and "-lopsnn_kt" in libs
    exe = tmp_path / "example"
    done = subprocess.run(["g++", "-w", *cflags, str(EXAMPLE), *sources, "-o", str(exe), *libs], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    check_program(exe)


def test_sources_without_an_operator_folder_are_refused():
    rc, _, err = flags("--host-sources")
    assert rc == 2 and "need --op-dir DIR" in err
    rc, _, err = flags("--host-cflags", "--op-dir", str(REPO / "docs"))
    assert rc == 2 and "is no operator folder" in err


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake on this machine")
def test_the_cmake_package_builds_the_example_with_the_folder(tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(f"""cmake_minimum_required(VERSION 3.16)
project(example CXX)
find_package(opsnn_host REQUIRED)
add_executable(example {EXAMPLE})
opsnn_host_add_operator(example {OWN} SOC Ascend910B2)
""")
    rc, [cmake_dir], _ = flags("--host-cmakedir")
    assert rc == 0 and (Path(cmake_dir) / "opsnn_hostConfig.cmake").is_file()
    build = tmp_path / "build"
    done = subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-Dopsnn_host_DIR={cmake_dir}"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    check_program(build / "example")
