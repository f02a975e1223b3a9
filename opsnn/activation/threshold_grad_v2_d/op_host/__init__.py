"""Host side: definition, shape inference, tiling.

The names below are loaded on first use (PEP 562): the definition is all that registering the
operator (and so `import opsnn`) needs, while the tiling pulls in op_common and the emulator."""
import importlib

_WHERE = {
    "BLOCK_SIZE": "opsnn.op_common",
    "ThresholdGradV2DTilingData": f"{__package__.rpartition('.')[0]}.op_kernel.threshold_grad_v2_d_tiling_data",
    "THRESHOLD_GRAD_V2D": f"{__name__}.threshold_grad_v2_d_def",
    "infer_shape": f"{__name__}.threshold_grad_v2_d_infershape",
    **{name: f"{__name__}.threshold_grad_v2_d_tiling"
       for name in ("UB_FACTOR", "CorePlan", "TilingError", "TilingResult", "core_plan", "padding", "tiling")},
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
