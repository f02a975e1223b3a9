"""Every surface serves an operator from its declaration alone (issue 17: no per-operator code
outside the folder): torch.ops.opsnn.<name> with autograd and opcheck, opsnn.torch.<name>,
opsnn.dask.<name>. The operator is tests/surfaces/fake_operator.py, registered in a child process
(registration is process state)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", "import fake_operator\n" + code], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_torch_custom_op_from_the_declaration():
    pytest.importorskip("torch")
    out = run(
        "import torch, opsnn.torch as ot\n"
        "from torch.library import opcheck\n"
        "print(torch.ops.opsnn.scale_backward.default._schema)\n"
        "g = torch.tensor([1., 2., -3.], requires_grad=True); x = torch.tensor([1., -1., 2.])\n"
        "y = torch.ops.opsnn.scale_backward(g, x, 2.0, True); y.sum().backward()\n"
        "print(y.tolist(), g.grad.tolist())\n"
        "print(ot.scale_backward(torch.ones(2), torch.ones(2), 3.0, False, semantics='ascend950').tolist())\n"
        "print(sorted(opcheck(torch.ops.opsnn.scale_backward.default,\n"
        "      (torch.randn(3, requires_grad=True), torch.randn(3), 0.5, False)).values()))\n"
        "try:\n"
        "    torch.ops.opsnn.scale_backward(g, x.double(), 2.0, False)\n"
        "except NotImplementedError as e:\n"
        "    print('NotImplementedError', e)\n"
        "print('scale_backward' in dir(ot))\n")
    lines = out.splitlines()
    assert lines[0] == ("opsnn::scale_backward(Tensor grad_output, Tensor self_, Scalar scale, bool negate, "
                        "str semantics=\"torch\") -> Tensor")
    assert lines[1] == "[-2.0, -0.0, 6.0] [-2.0, -0.0, -2.0]"  # d/dgrad of -(2 grad) where x > 0
    assert lines[2] == "[3.0, 3.0]"
    assert set(eval(lines[3])) == {"SUCCESS"}
    assert lines[4] == "NotImplementedError dtypes differ" and lines[5] == "True"


def test_dask_function_from_the_declaration():
    pytest.importorskip("dask")
    out = run(
        "import numpy as np, dask.array as da, opsnn.dask as od\n"
        "g = da.from_array(np.arange(12.).reshape(3, 4), chunks=2)\n"
        "x = da.from_array(np.array([1., -1, 2, -2]), chunks=2)\n"
        "r = od.scale_backward(g, x, 2.0, negate=True, semantics='ascend910b')\n"
        "print(type(r).__name__, r.shape, r.compute().tolist())\n"
        "try:\n"
        "    od.scale_backward(g, x.astype(np.float32), 2.0)\n"
        "except TypeError as e:\n"
        "    print('TypeError', e)\n")
    lines = out.splitlines()
    assert lines[0] == "Array (3, 4) [[-0.0, -0.0, -4.0, -0.0], [-8.0, -0.0, -12.0, -0.0], [-16.0, -0.0, -20.0, -0.0]]"
    assert lines[1] == "TypeError dtypes differ"  # when the graph is built, not at compute
