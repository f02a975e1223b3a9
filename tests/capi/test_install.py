"""Where the C ABI is built and how a user finds it: per environment (never the package's folder,
never a wheel), built on first use by `--cflags/--libs`, named by `opsnn info`, and laid out as a
CANN toolkit is (lib64/) for build files written for one (ASCEND_CUSTOM_PATH)."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from opsnn import capi, registry
from opsnn.capi import programs

from .conftest import run

SOURCE = programs.examples(registry.get("threshold_grad_v2_d"))[0]
RESULT = ["result[0] is: 0.000000", "result[1] is: 4.400000", "result[2] is: 4.300000", "result[3] is: 4.200000"]


def test_cflags_build_on_first_use_and_the_readme_line_works(capi_built, tmp_path):
    """A fresh environment's folder: `--cflags --libs` builds there (a note on stderr), names it,
    and the README's one-liner compiles and runs the upstream example; `opsnn info` says so."""
    root = tmp_path / "capi"
    env = {**os.environ, capi.DIR_VARIABLE: str(root)}
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", "--cflags", "--libs"], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"opsnn.capi: building the C ABI into {root} ...\n"
    assert f"-I{root}/include " in done.stdout and f"-L{root}/lib " in done.stdout
    assert (root / "include" / "aclnnop" / "aclnn_threshold_backward.h").is_file()
    again = subprocess.run([sys.executable, "-m", "opsnn.capi", "--cflags"], capture_output=True, text=True, env=env)
    assert again.stderr == ""
    assert again.stdout.strip() == f"-I{root}/include -I{root}/include/aclnnop -I{root}/include/aclnn"
    prog = tmp_path / "prog"
    subprocess.run(["g++", str(SOURCE), *shlex.split(done.stdout), "-o", str(prog)], check=True)
    assert run(prog).stdout.splitlines() == RESULT
    info = subprocess.run([sys.executable, "-m", "opsnn", "info"], capture_output=True, text=True, env=env).stdout
    assert f"C ABI       built ({root}); device mode fast (OPSNN_DEVICE_MODE)" in info.splitlines()


def test_cflags_say_why_when_it_cannot_be_built(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    env = {**os.environ, capi.DIR_VARIABLE: str(blocked / "capi")}
    done = subprocess.run([sys.executable, "-m", "opsnn.capi", "--cflags"], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and done.stdout.strip().startswith(f"-I{blocked}/capi/include")
    assert done.stderr.splitlines()[-1] == (
        f"opsnn.capi: the C ABI is not built ({blocked}/capi): cannot write {blocked}/capi: Not a directory "
        "(set OPSNN_CAPI_DIR to a writable folder)")


def test_never_built_into_the_package(monkeypatch, tmp_path):
    from opsnn.capi.build import build
    monkeypatch.delenv(capi.DIR_VARIABLE, raising=False)
    assert capi.PACKAGE_DIR not in (capi.build_root(), *capi.build_root().parents)
    with pytest.raises(ValueError, match="outside the package"):
        build(dest=capi.PACKAGE_DIR)


def test_a_read_only_prefix_builds_in_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv(capi.DIR_VARIABLE, raising=False)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "readonly-env"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert capi.build_root() == tmp_path / "readonly-env" / "share" / "opsnn" / "capi"
    monkeypatch.setattr(capi, "_writable", lambda path: False)  # as for a user without write access there
    root = capi.build_root()
    assert root.parent == tmp_path / "cache" / "opsnn" / "capi" and root.name.startswith("py3.")


def test_a_wheel_never_carries_an_earlier_build(tmp_path):
    """build_capi removes what an earlier build left in the build tree (lib/, lib64/, generated
    headers) and builds nothing into it."""
    from setuptools.dist import Distribution

    from opsnn.capi.setup_step import BuildCapi
    capi_dir = tmp_path / "opsnn" / "capi"
    (capi_dir / "lib").mkdir(parents=True)
    (capi_dir / "lib" / "libascendcl.so").write_bytes(b"old")
    (capi_dir / "lib64").symlink_to("lib")
    (capi_dir / "include" / "aclnnop").mkdir(parents=True)
    for name in ("aclnn_util.h", "aclnn_threshold.h"):
        (capi_dir / "include" / "aclnnop" / name).write_text("")
    step = BuildCapi(Distribution())
    step.build_lib, step.editable_mode = str(tmp_path), False
    step.run()
    left = sorted(str(p.relative_to(capi_dir)) for p in capi_dir.rglob("*"))
    assert left == ["include", "include/aclnnop", "include/aclnnop/aclnn_util.h"]


@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake")
def test_a_cann_style_cmakelists_with_ascend_custom_path(capi_built, tmp_path):
    """A CMakeLists written for a CANN toolkit: ASCEND_CUSTOM_PATH, include/ and include/aclnn,
    the four libraries by their lib64/ paths."""
    libs = " ".join(f"${{ASCEND_PATH}}/lib64/lib{n}.so" for n in capi.LINK_NAMES)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.14)\nproject(sample CXX)\nadd_executable(sample ${SOURCE})\n"
        "set(ASCEND_PATH $ENV{ASCEND_CUSTOM_PATH})\n"
        "include_directories(${ASCEND_PATH}/include ${ASCEND_PATH}/include/aclnn)\n"
        f"target_link_libraries(sample PRIVATE {libs})\n")
    build = tmp_path / "build"
    env = {**os.environ, "ASCEND_CUSTOM_PATH": str(capi.build_root())}
    subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(build), f"-DSOURCE={SOURCE}"], check=True,
                   capture_output=True, env=env)
    subprocess.run(["cmake", "--build", str(build)], check=True, capture_output=True, env=env)
    assert run(build / "sample").stdout.splitlines() == RESULT
    assert Path(capi.build_root(), "lib64", "libascendcl.so").resolve() == Path(capi.lib_dir(), "libascendcl.so")
