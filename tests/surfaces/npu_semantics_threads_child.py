"""Child of test_npu_semantics_threads.py: contexts opened and closed in a loop in one thread while
other threads call the intercepted aten ops, some with no context (torch's bits expected) and one
inside its own context (opsnn's). Prints "ok" and the counts, or dies (issue 27 item 0: SIGSEGV).

    python npu_semantics_threads_child.py SECONDS
"""
from __future__ import annotations

import sys
import threading
import time

import torch

import opsnn.torch as ot

aten = torch.ops.aten


def main(seconds: float) -> None:
    gen = torch.Generator().manual_seed(0)
    g32, x32 = torch.randn(64, generator=gen), torch.randn(64, generator=gen)
    g64, xu8 = torch.randn(64, dtype=torch.float64, generator=gen), torch.arange(64, dtype=torch.uint8)
    h16, y16 = torch.ones(3, dtype=torch.float16), torch.tensor([0.3, 0.31, 0.29], dtype=torch.float16)
    plain = {  # torch's own answers, before any context
        "f32": aten.threshold_backward(g32, x32, 0.0), "f64u8": aten.threshold_backward(g64, xu8, 3),
        "leaky": aten.leaky_relu_backward(g32, x32, 0.5, False), "fwd": aten.threshold(x32, 0.1, -1.0)}
    with ot.npu_semantics("ascend910b") as probe:
        npu = aten.threshold_backward(h16, y16, 0.3)
    assert probe.calls and not torch.equal(npu, aten.threshold_backward(h16, y16, 0.3))
    stop = time.monotonic() + seconds
    counts, failures = {}, []

    def no_context(name):
        n = 0
        while time.monotonic() < stop:
            got = {"f32": aten.threshold_backward(g32, x32, 0.0), "f64u8": aten.threshold_backward(g64, xu8, 3),
                   "leaky": aten.leaky_relu_backward(g32, x32, 0.5, False), "fwd": aten.threshold(x32, 0.1, -1.0)}
            for key, value in got.items():
                if not torch.equal(value, plain[key]):
                    failures.append(f"{name}: {key} differs from torch's outside a context")
                    return
            n += 1
        counts[name] = n

    def own_context():
        n = 0
        while time.monotonic() < stop:
            with ot.npu_semantics("ascend910b", forward=False):
                got = aten.threshold_backward(h16, y16, 0.3)
            if not torch.equal(got, npu):
                failures.append("own context: not the NPU's answer")
                return
            n += 1
        counts["own"] = n

    def toggle():
        n = 0
        while time.monotonic() < stop:
            with ot.npu_semantics("ascend910b"), ot.npu_semantics("ascend950", forward=False):
                pass
            n += 1
        counts["toggle"] = n

    threads = [threading.Thread(target=f, args=a) for f, a in
               ((toggle, ()), (no_context, ("a",)), (no_context, ("b",)), (own_context, ()))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    assert set(counts) == {"toggle", "a", "b", "own"}, counts
    print("ok", counts, ot.__file__)


if __name__ == "__main__":
    main(float(sys.argv[1]))
