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
         "    from opsnn.ascendc.binary import mul_values\n"
         "    from opsnn.ascendc.mul_arch35 import mul_values as mul_950\n"
         "    if family == 'ascend950':\n"
         "        return mul_950(grad, x, np.empty(grad.shape, grad.dtype))\n"
         "    return mul_values(grad, x)")],
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
from opsnn import cli, registry
from opsnn.atk.surfaces import check_surfaces
assert registry.get("ToyGrad").name == "toy_grad"
g = np.array([1, -2, 3, 4, 0.5], np.float32)
x = np.array([0.5, -1, 2, np.nan, 3], np.float32)
check_surfaces("toy_backward", g, x, torch=%(torch)s, dask=%(dask)s)
want = opsnn.toy_backward(g, x, semantics="ascend910b")
for s in ("ascend910b", "ascend950"):
    got = opsnn.toy_backward(g, x, semantics=s, backend="emulator")
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), (s, got, want)
for soc in ("Ascend910B2", "Ascend950"):  # the generated tools.py
    assert cli.main(["tiling", "toy_grad", "--shape", "900", "--shape", "900", "--soc", soc]) == 0
    assert cli.main(["sanitize", "toy_grad", "--shape", "900", "--shape", "900", "--soc", soc]) == 0
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


def test_the_generated_test_runs_inside_a_package_of_ones_own(tmp_path):
    """docs/operators.md's layout: the operator folder inside the developer's package `mypkg`
    (an __init__.py, entry point "mypkg.toy_grad"); the generated test finds its operator from
    where it lies (it did `import toy_grad`, which only a folder on sys.path has)."""
    package = tmp_path / "mypkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    assert cli.main(["new-op", "toy_grad", "--dir", str(package)]) == 0
    _fill(package / "toy_grad")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "surface",
                           str(package / "toy_grad" / "tests")], capture_output=True, text=True, timeout=600,
                          cwd=tmp_path, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


@pytest.mark.parametrize(("argv", "said"), [
    (["threshold_grad_v2_d"], "is taken: operator threshold_grad_v2_d"),
    (["my_sigmoid_grad", "--python", "sigmoid_backward"], "is taken: opsnn.sigmoid_backward"),
    (["my_selu_grad", "--api", "aclnnSeluBackward"], "is taken: aclnnSeluBackward"),
    (["x" * 300], "at most 64"),
])
def test_new_op_refuses_names_in_one_line(argv, said, tmp_path, capsys):
    assert cli.main(["new-op", *argv, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_new_op_where_the_folder_cannot_be_written(tmp_path, capsys):
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert cli.main(["new-op", "toy_grad", "--dir", str(a_file)]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert cli.main(["new-op", "toy_grad", "--dir", str(a_file / "under")]) == 2  # mkdir under a file
    err = capsys.readouterr().err
    assert "cannot write" in err and "Not a directory" in err and "Traceback" not in err
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        assert cli.main(["new-op", "toy_grad", "--dir", str(locked)]) == 2
        err = capsys.readouterr().err
        assert "cannot write" in err and "Permission denied" in err and "Traceback" not in err
    finally:
        locked.chmod(0o700)


def test_new_op_marks_where_a_scalar_attribute_goes(tmp_path, capsys):
    """Every file a scalar attribute reaches carries a mark, and the command lists them."""
    assert cli.main(["new-op", "toy_grad", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    files = {rel for rel, _, _ in new_op.marked(tmp_path / "toy_grad", new_op.SCALAR_MARK)}
    assert files == {"__init__.py", "numpy_api.py", "functional_models.py", "op_host/toy_grad_tiling.py",
                     "op_host/arch35/toy_grad_tiling_arch35.py", "op_kernel/toy_grad_tiling_data.py",
                     "op_kernel/toy_grad.py", "op_api/toy_grad.py", "op_api/aclnn_toy_backward.py",
                     "op_api/aclnn_signature.py", "examples/test_aclnn_toy_backward.py",
                     "examples/test_aclnn_toy_backward.cpp"}
    assert f'places marked "{new_op.SCALAR_MARK}"' in out and "op_api/aclnn_toy_backward.py:" in out


def test_an_example_that_raises_is_one_line(tmp_path, capsys, monkeypatch):
    """`opsnn example` on an operator whose example no longer fits its API (a scalar added to the
    signature, the call not updated): the failure in one line with where it happened, exit 1."""
    from opsnn import registry
    example = tmp_path / "examples" / "test_aclnn_broken.py"
    example.parent.mkdir()
    example.write_text("def main():\n    return (lambda a, b: 0)(1)\n")
    op = registry.Operator(name="broken_example_op", op_def=registry.get("selu_grad").op_def, package="x",
                           summary="an example that raises", example=example.name)
    monkeypatch.setattr(registry.Operator, "example_path", lambda self: example)
    monkeypatch.setattr(registry, "get", lambda name: op)
    assert cli.main(["example", "broken_example_op"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("opsnn example: broken_example_op's example failed: TypeError:") and "missing 1" in err
    assert "test_aclnn_broken.py:2" in err and "Traceback" not in err
