"""How a build finds the C ABI: pkg-config and CMake, as a C++ developer would use them."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from opsnn import registry
from opsnn.capi import pkgconfig_dir, programs

from .conftest import run

SOURCE = programs.examples(registry.get("threshold_grad_v2_d"))[0]
RESULT = ["result[0] is: 0.000000", "result[1] is: 4.400000", "result[2] is: 4.300000", "result[3] is: 4.200000"]


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="no pkg-config")
def test_pkg_config(capi_built, tmp_path):
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "opsnn"], capture_output=True, text=True, check=True,
                           env={**os.environ, "PKG_CONFIG_PATH": str(pkgconfig_dir())}).stdout.split()
    assert "-lopapi_nn" in flags and any(f.startswith("-Wl,-rpath,") for f in flags)
    out = tmp_path / "app"
    subprocess.run(["c++", str(SOURCE), *flags, "-o", str(out)], check=True)
    assert run(out).stdout.splitlines() == RESULT


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake")
def test_cmake_find_package(capi_built, tmp_path):
    from opsnn.capi import cmake_dir
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.14)\nproject(app CXX)\nset(CMAKE_CXX_STANDARD 11)\n"
        "find_package(opsnn 0.1 REQUIRED)\nadd_executable(app ${SOURCE})\n"
        "target_link_libraries(app PRIVATE opsnn::ascendcl opsnn::nnopbase opsnn::opapi_nn opsnn::opapi_math)\n")
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-Dopsnn_DIR={cmake_dir()}",
                    f"-DSOURCE={SOURCE}"], check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True)
    assert run(build / "app").stdout.splitlines() == RESULT


def test_python_m_opsnn_capi_example():
    import sys
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", "example", "threshold_grad_v2_d", "--std", "c++11"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["# test_aclnn_threshold_backward.cpp", *RESULT]


def test_opsnn_example_cpp(capi_built):
    """`opsnn example --cpp`: the operator's C++ examples, compiled and run against the C ABI."""
    import sys
    done = subprocess.run([sys.executable, "-m", "opsnn", "example", "threshold_grad_v2_d", "--cpp", "--std", "c++14"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["# test_aclnn_threshold_backward.cpp", *RESULT]


@pytest.mark.parametrize("argv, message", [
    (["example", "--std", "c++11"], "opsnn example: error: --std goes with --cpp"),
    (["example", "relu_grad", "--cpp"], "opsnn example: error: operator relu_grad has no C++ example"),
])
def test_opsnn_example_cpp_misuse(argv, message):
    import sys
    done = subprocess.run([sys.executable, "-m", "opsnn", *argv], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.strip() == message and done.stdout == ""
