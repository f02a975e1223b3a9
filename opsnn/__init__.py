"""opsnn: the CANN ops-nn ThresholdGradV2D operator stack, emulated in Python.

threshold_backward and threshold are defined here (opsnn/api.py); every other operator's numpy
API lives in its own folder and is published by the registry (Operator.python_api) on first use
as opsnn.<name>."""
from opsnn.api import threshold, threshold_backward

__version__ = "0.1.0"
__all__ = ["threshold", "threshold_backward"]


def __getattr__(name: str):
    # `from opsnn import acl` asks here before it imports the submodule: answering a submodule's
    # name by listing the operators would import every plug-in (~20 ms) for nothing
    from opsnn import registry

    if name.startswith("_") or registry.is_submodule(__name__, name):
        raise AttributeError(f"module 'opsnn' has no attribute {name!r}")
    target = registry.python_api().get(name)
    if target is None:
        raise AttributeError(f"module 'opsnn' has no attribute {name!r}")
    function = registry.resolve(target)
    globals()[name] = function  # found once
    return function


def __dir__():
    from opsnn import registry
    return sorted({*globals(), *registry.python_api()})
