"""The aclnn test device (opsnn.aclnn.testing) with aclnnThreshold's and aclnnInplaceThreshold's
two phases."""
from __future__ import annotations

from opsnn import aclnn
from opsnn.aclnn.testing import Device as _Device

__all__ = ["Device"]


class Device(_Device):
    def threshold(self, x, t, v, out) -> int:
        self.use()
        return self.run(aclnn.threshold_get_workspace_size(x, t, v, out), aclnn.threshold)

    def inplace_threshold(self, x, t, v) -> int:
        self.use()
        return self.run(aclnn.inplace_threshold_get_workspace_size(x, t, v), aclnn.inplace_threshold)
