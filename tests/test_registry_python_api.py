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
