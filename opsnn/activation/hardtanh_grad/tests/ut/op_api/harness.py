"""The aclnn test device (opsnn.aclnn.testing) with aclnnHardtanhBackward's two phases."""
from __future__ import annotations

from opsnn import aclnn
from opsnn.aclnn.testing import Device as _Device

__all__ = ["Device"]


class Device(_Device):
    def hardtanh_backward(self, grad, x, lo, hi, out) -> int:
        self.use()
        return self.run(aclnn.hardtanh_backward_get_workspace_size(grad, x, lo, hi, out), aclnn.hardtanh_backward)
