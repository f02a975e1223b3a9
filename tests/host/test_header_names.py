"""What op_host / op_api sources get from a header they include without naming the header that
declares it, as CANN's headers bring it: op::IsPrivateFormat and ToString(Format) through
opdev/op_dfx.h (upstream elu_v2, gelu op_api), the AscendC namespace through the platform header
(upstream gelu_grad's tiling writes `using namespace AscendC;`)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from opsnn.host import build as host_build

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _compile(tmp_path, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / "s.cpp"
    src.write_text(text)
    flags = [f"-I{d}" for d in host_build.host_include_dirs()]
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", *flags, str(src)], capture_output=True, text=True)


def test_op_dfx_brings_the_format_helpers(tmp_path):
    r = _compile(tmp_path, '#include "opdev/op_dfx.h"\n'
                           "bool f(op::Format x) {\n"
                           "    return op::IsPrivateFormat(x) && op::ToString(x).GetLength() > 0;\n}\n")
    assert r.returncode == 0, r.stderr


def test_the_platform_header_declares_the_host_ascendc_namespace(tmp_path):
    for header in ("tiling/platform/platform_ascendc.h", "platform/platform_ascendc.h"):
        r = _compile(tmp_path, f'#include "{header}"\nusing namespace AscendC;\n')
        assert r.returncode == 0, r.stderr


def test_acl_gives_host_programs_fp16_where_the_compiler_lacks_it(tmp_path):
    # upstream's log_softmax_v2 example writes `using half = __fp16;` (an aarch64 host's type)
    r = _compile(tmp_path, '#include "acl/acl.h"\nusing half = __fp16;\n'
                           "static_assert(sizeof(half) == 2, \"\");\n"
                           "float twice(float x) { return static_cast<float>(static_cast<half>(x)) * 2; }\n")
    assert r.returncode == 0, r.stderr
