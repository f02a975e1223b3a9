"""The C ABI's cost: one aclnnThresholdBackward call (phase 1, phase 2, synchronize) from C++
through libascendcl.so against the same call from Python (opsnn.aclnn), at 4 elements and 1 M;
a bare round trip into Python (aclCreateScalar + aclDestroyScalar); and the first call's cost
(aclInit: starting the interpreter and importing opsnn).

    python benchmarks/bench_capi.py [--repeat 5]

Each figure is the median of --repeat runs of a timed loop (a process each, for C++)."""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from opsnn import acl, aclnn
from opsnn.capi.programs import compile_program

SIZES = (4, 1 << 20)

PROGRAM = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"

using Clock = std::chrono::steady_clock;
static double Us(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::micro>(b - a).count();
}

int main(int argc, char **argv) {
    int64_t n = std::atoll(argv[1]);
    int iters = std::atoi(argv[2]);
    auto t0 = Clock::now();
    if (aclInit(nullptr) != 0) return 1;
    auto t1 = Clock::now();
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<float> host(n, 1.5f);
    size_t bytes = n * sizeof(float);
    void *g, *f, *o;
    aclrtMalloc(&g, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&f, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&o, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(g, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(f, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    int64_t shape[1] = {n};
    aclTensor *tg = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, g);
    aclTensor *tf = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, f);
    aclTensor *to = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, o);
    float t = 1.0f;
    aclScalar *th = aclCreateScalar(&t, ACL_FLOAT);
    uint64_t wsmax = 0;
    void *ws = nullptr;
    auto call = [&]() {
        uint64_t size = 0;
        aclOpExecutor *ex;
        if (aclnnThresholdBackwardGetWorkspaceSize(tg, tf, th, to, &size, &ex) != 0) std::exit(2);
        if (size > wsmax) {
            if (ws) aclrtFree(ws);
            aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST);
            wsmax = size;
        }
        if (aclnnThresholdBackward(ws, size, ex, stream) != 0 || aclrtSynchronizeStream(stream) != 0) std::exit(3);
    };
    call();  // warm: the operator's modules import on its first call
    auto t2 = Clock::now();
    for (int i = 0; i < iters; ++i) call();
    auto t3 = Clock::now();
    const int trips = 20000;
    for (int i = 0; i < trips; ++i) aclDestroyScalar(aclCreateScalar(&t, ACL_FLOAT));
    auto t4 = Clock::now();
    printf("init_ms=%.3f\ncall_us=%.3f\ntrip_us=%.3f\n", Us(t0, t1) / 1000, Us(t2, t3) / iters, Us(t3, t4) / trips / 2);
    aclDestroyTensor(tg); aclDestroyTensor(tf); aclDestroyTensor(to); aclDestroyScalar(th);
    aclrtFree(g); aclrtFree(f); aclrtFree(o); if (ws) aclrtFree(ws);
    aclrtDestroyStream(stream); aclrtResetDevice(0); aclFinalize();
    return 0;
}
"""


def iterations(n: int) -> int:
    return 2000 if n <= 4 else 10


def c_run(program: Path, n: int) -> dict[str, float]:
    out = subprocess.run([str(program), str(n), str(iterations(n))], capture_output=True, text=True, check=True)
    return {k: float(v) for k, v in (line.split("=") for line in out.stdout.split())}


def python_call_us(n: int) -> float:
    """The same loop on opsnn.aclnn from Python (this process's runtime)."""
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    stream, _ = acl.rt.create_stream()
    host = np.full(n, 1.5, np.float32)
    ptrs = [acl.rt.malloc(host.nbytes, 0)[0] for _ in range(3)]
    for p in ptrs[:2]:
        acl.rt.memcpy(p, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    g, f, o = (acl.create_tensor((n,), acl.ACL_FLOAT, None, 0, acl.ACL_FORMAT_ND, (n,), p) for p in ptrs)
    th = acl.create_scalar(1.0, acl.ACL_FLOAT)
    ws = {"size": 0, "ptr": 0}

    def call():
        size, ex, ret = aclnn.threshold_backward_get_workspace_size(g, f, th, o)
        if size > ws["size"]:
            if ws["ptr"]:
                acl.rt.free(ws["ptr"])
            ws["ptr"], ws["size"] = acl.rt.malloc(size, 0)[0], size
        assert ret == 0 and aclnn.threshold_backward(ws["ptr"], size, ex, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0

    call()
    iters = iterations(n)
    start = time.perf_counter()
    for _ in range(iters):
        call()
    elapsed = (time.perf_counter() - start) / iters * 1e6
    for p in ptrs + ([ws["ptr"]] if ws["ptr"] else []):
        acl.rt.free(p)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return elapsed


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "bench.cpp"
        source.write_text(PROGRAM)
        program = compile_program(source, Path(tmp) / "bench", extra=("-O2",), warnings_as_errors=False)
        print(f"{'elements':>9} {'C++ call us':>12} {'Python call us':>15} {'C/Python':>9} "
              f"{'round trip us':>14} {'aclInit ms':>11}")
        for n in SIZES:
            runs = [c_run(program, n) for _ in range(args.repeat)]
            c_us = statistics.median(r["call_us"] for r in runs)
            py_us = statistics.median(python_call_us(n) for _ in range(args.repeat))
            trip = statistics.median(r["trip_us"] for r in runs)
            init = statistics.median(r["init_ms"] for r in runs)
            print(f"{n:>9} {c_us:>12.1f} {py_us:>15.1f} {c_us / py_us:>9.2f} {trip:>14.2f} {init:>11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
