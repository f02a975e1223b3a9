"""The C ABI's build (opsnn/capi/build.py) under other processes' feet (issue 35 item 8): a
rebuild is made beside the live folders and renamed into place, never written into them; the
interpreter's spellings (.venv/bin/python, python3) are one build, not one each."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from opsnn.capi import LIBRARY
from opsnn.capi import build as capi_build


def test_python_and_python3_are_one_build():
    bin_dir = Path(sys.executable).parent
    spellings = [bin_dir / n for n in ("python", "python3") if (bin_dir / n).exists()]
    if len(spellings) < 2:
        pytest.skip("this environment has one spelling of its interpreter")
    try:
        digests = {capi_build._plan(str(p))[-1] for p in spellings}
    except capi_build.BuildUnavailable as e:
        pytest.skip(str(e))
    assert len(digests) == 1
    assert len({capi_build.canonical_python(str(p)) for p in spellings}) == 1


@pytest.fixture
def fake_compiler(monkeypatch):
    """subprocess.run standing in for the compiler: writes the library's bytes, and first calls
    `during` (what a user of the live folder sees while a build compiles)."""
    state = {"builds": 0, "during": None}

    def run(cmd, **kwargs):
        if state["during"] is not None:
            state["during"]()
        state["builds"] += 1
        Path(cmd[cmd.index("-o") + 1]).write_bytes(f"library {state['builds']}".encode())
        return subprocess.CompletedProcess(cmd, 0, "", "")
    monkeypatch.setattr(capi_build.subprocess, "run", run)
    try:
        capi_build.compiler()
        capi_build.libpython()
    except capi_build.BuildUnavailable as e:
        pytest.skip(str(e))
    return state


def test_a_rebuild_replaces_the_folders_whole(tmp_path, fake_compiler, monkeypatch):
    dest = tmp_path / "capi"
    lib = capi_build.build(dest)
    header_path = dest / "include" / "aclnnop" / "aclnn_selu_backward.h"
    old_header = header_path.read_text()
    generated = capi_build._generated  # the next build's declarations differ: a changed header

    def changed(apis, origins):
        headers, source = generated(apis, origins)
        return {k: v + "// changed\n" for k, v in headers.items()}, source
    monkeypatch.setattr(capi_build, "_generated", changed)
    assert (lib / LIBRARY).read_bytes() == b"library 1" and (dest / "lib64" / LIBRARY).read_bytes() == b"library 1"
    (dest / "kt" / "lib").mkdir(parents=True)  # another component's build in the same root
    (dest / "kt" / "lib" / "libopsnn_kt.so").write_bytes(b"kt")
    held = open(lib / LIBRARY, "rb")  # a process that has the old library open (or mapped)
    header = (dest / "include" / "acl" / "acl.h").read_bytes()
    seen = []

    def during():  # the live folders while the new build compiles: the old build, whole
        seen.append(((dest / "lib" / LIBRARY).read_bytes(), (dest / "include" / "acl" / "acl.h").read_bytes(),
                     header_path.read_text() == old_header, (dest / "lib" / ".build-stamp").is_file()))
    fake_compiler["during"] = during
    capi_build.build(dest)
    assert seen == [(b"library 1", header, True, True)]
    assert header_path.read_text() == old_header + "// changed\n"
    assert (dest / "lib" / LIBRARY).read_bytes() == b"library 2" and held.read() == b"library 1"
    held.close()
    assert (dest / "kt" / "lib" / "libopsnn_kt.so").read_bytes() == b"kt"  # left alone
    assert (dest / "lib64").is_symlink() and (dest / "lib64" / LIBRARY).read_bytes() == b"library 2"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["capi"]  # nothing left beside it
    assert capi_build.build(dest) == dest / "lib" and fake_compiler["builds"] == 2  # up to date: not rebuilt


def test_a_failed_build_leaves_the_old_one(tmp_path, fake_compiler, monkeypatch):
    dest = tmp_path / "capi"
    capi_build.build(dest)
    monkeypatch.setattr(capi_build.subprocess, "run",
                        lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, "", "error: no"))
    with pytest.raises(RuntimeError, match="compiling the C ABI failed"):
        capi_build.build(dest, force=True)
    assert (dest / "lib" / LIBRARY).read_bytes() == b"library 1" and (dest / "lib" / ".build-stamp").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["capi"] and os.listdir(dest / "include")
