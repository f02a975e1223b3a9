"""issue 27 item 9: torch.compile with inductor under an open npu_semantics decomposes the
intercepted ops into its own loops; the graph it compiles warns (once per process) instead of
silently computing torch's semantics. Each case runs in a fresh process: the warning is once per
process and inductor's imports are what the wrappers hook."""
from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("torch")

SCRIPT = """
import sys, warnings
import torch
import opsnn.torch as ot
backend, order = sys.argv[1], sys.argv[2]
x = torch.randn(8, requires_grad=True)
steps = [lambda x: torch.nn.functional.relu(x).sum(), lambda x: (torch.nn.functional.relu(x) * 3).sum()]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    if order == "compile-first":
        steps = [torch.compile(f, backend=backend) for f in steps]
    with ot.npu_semantics("ascend910b") as mode:
        if order == "context-first":
            steps = [torch.compile(f, backend=backend) for f in steps]
        for f in steps:
            f(x).backward()
print(sum(w.category is ot.NpuSemanticsBypassWarning for w in caught), mode.calls["aten::threshold_backward"])
"""


@pytest.mark.parametrize(("backend", "order"), [("inductor", "compile-first"), ("inductor", "context-first"),
                                                ("aot_eager", "context-first")])
def test_inductor_under_the_mode_warns_once(backend, order):
    done = subprocess.run([sys.executable, "-c", SCRIPT, backend, order], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    warned, intercepted = map(int, done.stdout.split())
    if backend == "inductor":  # its own loops: nothing intercepted, one warning for the two graphs
        assert (warned, intercepted) == (1, 0)
    else:  # aten's kernels: intercepted, nothing to warn about
        assert (warned, intercepted) == (0, 2)
