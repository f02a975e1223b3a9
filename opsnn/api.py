"""The numpy API's shared names: the semantics and backends every operator's function takes, and
their types for annotations. The functions themselves are built in their operator folders
(opsnn.op_common.elementwise); threshold_backward and threshold are re-exported here, where
`import opsnn` has always found them."""
from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np

from opsnn.activation.threshold_grad_v2_d.numpy_api import threshold_backward
from opsnn.activation.threshold_v2.numpy_api import threshold
from opsnn.op_common.elementwise import BACKENDS

__all__ = ["BACKENDS", "Backend", "Scalar", "Semantics", "threshold", "threshold_backward"]

Semantics: TypeAlias = Literal["torch", "ascend910b", "ascend950"]
Backend: TypeAlias = Literal["auto", "fast", "emulator", "reference"]
Scalar: TypeAlias = "int | float | bool | np.number | np.bool_"
