"""`opsnn new-op NAME` (opsnn/op_common/new_op.py): the folder it writes registers, and once its
marked parts hold a trivial rule (z = dy * x) the operator passes opsnn's surface checks (numpy,
dask, torch with opcheck) and its kernels run on the emulator under both schemes."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from opsnn import cli
from opsnn.op_common import new_op

FILL = {  # file -> (marked text, the trivial rule's code)
    "numpy_api.py": [
        ('    # OPERATOR: the element rule under torch semantics\n'
         '    raise NotImplementedError("OPERATOR: torch_rule (toy_grad/numpy_api.py)")',
         "    return (grad.astype(fm.F32) * x.astype(fm.F32)).astype(grad.dtype)")],
    "functional_models.py": [
        ("    # OPERATOR: the kernel's arithmetic, step by step, in its compute dtype\n"
         '    raise NotImplementedError("OPERATOR: functional_models.toy_grad")',
         "    return (grad.astype(F32) * x.astype(F32)).astype(grad.dtype)")],
    "op_kernel/toy_grad.py": [
        ("        # OPERATOR: Compute on n elements with opsnn.ascendc's instructions (Cast, Mul, Sub, ...)\n"
         '        raise NotImplementedError("OPERATOR: KernelToyGrad.compute")',
         "        from opsnn.ascendc import Mul\n        Mul(z, inputs[0], inputs[1], n)")],
    "op_kernel/arch35/toy_grad_apt.py": [
        ("    # OPERATOR: the DAG: CopyIn(index, dtype) nodes, Cast / Mul / ... (opsnn.atvoss), CopyOut(node, 0)\n"
         '    raise NotImplementedError("OPERATOR: toy_grad_dag")',
         "    from opsnn.atvoss import CopyIn, CopyOut, Mul\n"
         "    return Dag(f'ToyGradDag<{dtype}>', [CopyOut(Mul(CopyIn(0, dtype), CopyIn(1, dtype)), 0)])")],
    "tests/test_toy_grad.py": [('semantics=("torch",))', ")")],
}

CHILD = """
import sys
import numpy as np
import opsnn, toy_grad
from opsnn import registry
from opsnn.atk.surfaces import check_surfaces
assert registry.get("ToyGrad").name == "toy_grad"
g = np.array([1, -2, 3, 4, 0.5], np.float32)
x = np.array([0.5, -1, 2, np.nan, 3], np.float32)
check_surfaces("toy_backward", g, x, torch=%(torch)s, dask=%(dask)s)
want = opsnn.toy_backward(g, x, semantics="ascend910b")
for s in ("ascend910b", "ascend950"):
    got = opsnn.toy_backward(g, x, semantics=s, backend="emulator")
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (s, got, want)
try:
    opsnn.toy_backward(g, x.astype(np.float64), semantics="ascend950")
except TypeError as e:
    print("refused:", e)
print("ok")
"""


def _fill(root):
    for rel, edits in FILL.items():
        path = root / rel
        text = path.read_text()
        for marked, code in edits:
            assert marked in text, (rel, marked)
            text = text.replace(marked, code)
        path.write_text(text)


def test_new_op_writes_a_marked_folder_that_reaches_every_surface_once_filled(tmp_path, capsys):
    assert cli.main(["new-op", "toy_grad", "--dir", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    root = tmp_path / "toy_grad"
    assert f"wrote {root}" in printed and "numpy_api.py" in printed
    assert {"__init__.py", "numpy_api.py", "functional_models.py", "op_host/toy_grad_def.py",
            "op_host/toy_grad_tiling.py", "op_host/arch35/toy_grad_tiling_arch35.py", "op_kernel/toy_grad.py",
            "op_kernel/arch35/toy_grad_apt.py", "op_api/toy_grad.py", "op_api/aclnn_toy_backward.py",
            "op_api/aclnn_signature.py", "examples/test_aclnn_toy_backward.py", "examples/test_aclnn_toy_backward.cpp",
            "tests/test_toy_grad.py"} <= {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    numpy_api = (root / "numpy_api.py").read_text()
    for generic in ("check_out(", "check_names(", "fold_rank(", "lanes.", "promote_types("):  # the builder's
        assert generic not in numpy_api, generic
    assert cli.main(["new-op", "toy_grad", "--dir", str(tmp_path)]) == 2  # exists
    _fill(root)
    assert all(rel not in FILL for rel, _, text in new_op.marked(root) if "NotImplementedError" in text)
    have = {m: subprocess.run([sys.executable, "-c", f"import {m}"], capture_output=True).returncode == 0
            for m in ("torch", "dask")}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", CHILD % have], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "ok"
    assert "refused: ascend950: x dtype float64 is not in aclnnToyBackward's list" in done.stdout
    # the generated package's own test runs too
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(root / "tests")],
                          capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


@pytest.mark.parametrize("bad", ["Bad", "1x", "class", "x_"])
def test_new_op_refuses_names_that_are_not_snake_case(bad, tmp_path, capsys):
    assert cli.main(["new-op", bad, "--dir", str(tmp_path)]) == 2
    assert "snake case" in capsys.readouterr().err


def test_names():
    assert new_op.names("softshrink_grad") == {"name": "softshrink_grad", "Op": "SoftshrinkGrad",
                                               "python": "softshrink_backward", "api": "aclnnSoftshrinkBackward",
                                               "NAME": "SOFTSHRINK_GRAD"}
    assert new_op.names("gelu", api="aclnnGeluV2")["python"] == "gelu"
