"""An operator folder publishes its numpy API through the registry (Operator.python_api): the
function becomes opsnn.<name> with no code outside the folder. Run in a child process: the
registration is process state."""
from __future__ import annotations

import subprocess
import sys

CHILD = r'''
import sys, types
import opsnn
from opsnn import registry
from opsnn.activation.relu_grad import OPERATOR as RELU

mod = types.ModuleType("my_ops"); sys.modules["my_ops"] = mod
mod.double_backward = lambda grad, x, *, semantics="torch", backend="auto": grad * 2
registry.register(registry.Operator(name="double_grad", op_def=RELU.op_def, package="my_ops", summary="2 grad",
                                    python_api={"double_backward": "my_ops:double_backward"}))
assert opsnn.double_backward(3, 0) == 6
assert "double_backward" in dir(opsnn) and "threshold_backward" in dir(opsnn)
try:
    opsnn.no_such_function
except AttributeError as e:
    assert "no attribute 'no_such_function'" in str(e)
else:
    raise SystemExit("no AttributeError")
registry.register(registry.Operator(name="other", op_def=RELU.op_def, package="my_ops", summary="x",
                                    python_api={"double_backward": "my_ops:other"}))
try:
    registry.python_api()
except ValueError as e:
    assert "published by two operators" in str(e)
else:
    raise SystemExit("two publishers accepted")
print("ok")
'''


def test_an_operator_publishes_its_numpy_api():
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]


def test_a_broken_entry_point_is_one_warning_and_the_rest_still_loads(tmp_path):
    info = tmp_path / "broken_ops-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-ops\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[opsnn.operators]\nbroken = no_such_module_here\n")
    code = ("import warnings; from opsnn import registry\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always'); ops = registry.discover()\n"
            "print('threshold_grad_v2_d' in ops, [str(x.message) for x in w])")
    import os
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('True ["opsnn: the operator entry point broken = no_such_module_here failed to '
                                  'load: ModuleNotFoundError'), done.stdout
