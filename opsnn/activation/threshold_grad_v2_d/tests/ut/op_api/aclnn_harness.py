"""The aclnn test device (opsnn.aclnn.testing) with aclnnThresholdBackward's two phases."""
from __future__ import annotations

from opsnn import aclnn
from opsnn.aclnn.testing import Device as _Device
from opsnn.aclnn.testing import bits

__all__ = ["Device", "bits"]


class Device(_Device):
    def threshold_backward(self, grad, feature, threshold, out, sync: bool = True) -> int:
        """Both phases and a synchronize; the first non-zero status (phase 1, 2, or the sync's)."""
        self.use()
        return self.run(aclnn.threshold_backward_get_workspace_size(grad, feature, threshold, out),
                        aclnn.threshold_backward, sync)
