"""The aclnn test device (opsnn.aclnn.testing) with aclnnLeakyReluBackward's two phases, called
through opsnn.aclnn's namespace as an application would."""
from __future__ import annotations

from opsnn import aclnn
from opsnn.aclnn.testing import Device as _Device
from opsnn.aclnn.testing import bits

__all__ = ["Device", "bits"]


class Device(_Device):
    def phase1(self, grad, x, slope, self_is_result, out):
        self.use()
        return aclnn.leaky_relu_backward_get_workspace_size(grad, x, slope, self_is_result, out)

    def leaky_relu_backward(self, grad, x, slope, self_is_result, out) -> int:
        return self.run(self.phase1(grad, x, slope, self_is_result, out), aclnn.leaky_relu_backward)
