"""threshold_backward's and threshold's numpy side (opsnn.threshold_backward, opsnn.threshold):
the rules of the three semantics (torch_rules, ascend_rules, plan), every comparison reduced to
one range of the feature's bits (keep_range), the express entry (express), the fast path on the
C engine or numpy (fast, numpy_engine), the plain formula (reference) and the emulated device
(emulator). Kept light on purpose: importing opsnn must not import torch or the emulator."""
