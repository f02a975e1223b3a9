"""aclnnHardtanhBackward through the generated C ABI: the header declares upstream's signature,
and a C++ program sees upstream's statuses (161001 for null pointers, 161002 for a dtype) and the
results, under the sanitizer on Ascend950 too."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from opsnn.capi import include_dir
from opsnn.capi.build import build
from opsnn.capi.programs import compile_program

pytestmark = pytest.mark.skipif(shutil.which("g++") is None and shutil.which("c++") is None,
                                reason="no C++ compiler")

PROGRAM = r'''
#include <cstdio>
#include "acl/acl.h"
#include "aclnnop/aclnn_hardtanh_backward.h"

static aclTensor *Make(void **dev, const void *host, aclDataType type, size_t item, int64_t n) {
    int64_t shape[1] = {n};
    aclrtMalloc(dev, n * item, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(*dev, n * item, host, n * item, ACL_MEMCPY_HOST_TO_DEVICE);
    return aclCreateTensor(shape, 1, type, nullptr, 0, ACL_FORMAT_ND, shape, 1, *dev);
}

int main() {
    aclrtStream stream;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    float g[4] = {1, -2, 3, 4}, x[4] = {-1, 5, 0.5f, 0.9f}, out[4] = {9, 9, 9, 9};
    signed char i8[4] = {0, 0, 0, 0};
    void *gd, *xd, *od, *id;
    aclTensor *gt = Make(&gd, g, ACL_FLOAT, 4, 4), *xt = Make(&xd, x, ACL_FLOAT, 4, 4);
    aclTensor *ot = Make(&od, out, ACL_FLOAT, 4, 4), *it = Make(&id, i8, ACL_INT8, 1, 4);
    float lo = -1.0f, hi = 1.0f;
    aclScalar *mn = aclCreateScalar(&lo, ACL_FLOAT), *mx = aclCreateScalar(&hi, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor *ex = nullptr;
    printf("null self %d\n", aclnnHardtanhBackwardGetWorkspaceSize(gt, nullptr, mn, mx, ot, &ws, &ex));
    printf("null max %d\n", aclnnHardtanhBackwardGetWorkspaceSize(gt, xt, mn, nullptr, ot, &ws, &ex));
    printf("null workspaceSize %d\n", aclnnHardtanhBackwardGetWorkspaceSize(gt, xt, mn, mx, ot, nullptr, &ex));
    printf("int8 self %d\n", aclnnHardtanhBackwardGetWorkspaceSize(gt, it, mn, mx, ot, &ws, &ex));
    int ret = aclnnHardtanhBackwardGetWorkspaceSize(gt, xt, mn, mx, ot, &ws, &ex);
    void *w = nullptr;
    if (ws > 0) aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
    ret |= aclnnHardtanhBackward(w, ws, ex, stream);
    ret |= aclrtSynchronizeStream(stream);
    aclrtMemcpy(out, sizeof out, od, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("run %d: %g %g %g %g\n", ret, out[0], out[1], out[2], out[3]);
    aclDestroyTensor(gt); aclDestroyTensor(xt); aclDestroyTensor(ot); aclDestroyTensor(it);
    aclDestroyScalar(mn); aclDestroyScalar(mx);
    aclrtFree(gd); aclrtFree(xd); aclrtFree(od); aclrtFree(id);
    if (w) aclrtFree(w);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
'''


def test_header_declares_upstreams_signature():
    build()
    text = (include_dir() / "aclnnop" / "aclnn_hardtanh_backward.h").read_text()
    assert ("aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self, "
            "const aclScalar *min, const aclScalar *max, aclTensor *out, uint64_t *workspaceSize, "
            "aclOpExecutor **executor);") in text
    assert ("aclnnStatus aclnnHardtanhBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, "
            "aclrtStream stream);") in text


@pytest.mark.parametrize(("env", "result"), [
    ({"OPSNN_SOC": "Ascend910B2"}, "run 0: 0 -0 3 4"),  # the TBE kernel: 0 * -2
    ({"OPSNN_SOC": "Ascend950", "OPSNN_SANITIZE": "1"}, "run 0: 0 0 3 4")])  # the DAG's +0.0
def test_statuses_and_result_from_cpp(tmp_path, env, result):
    source = tmp_path / "statuses.cpp"
    source.write_text(PROGRAM)
    program = compile_program(source, tmp_path / "statuses", warnings_as_errors=False)
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["null self 161001", "null max 161001", "null workspaceSize 161001",
                                        "int8 self 161002", result]
