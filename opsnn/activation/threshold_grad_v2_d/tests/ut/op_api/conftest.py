import pytest

from .aclnn_harness import Device


def _device(soc):
    dev = Device(soc)
    yield dev
    assert dev.close() == [], "the test leaked device resources"


@pytest.fixture
def dev():
    """An Ascend910B2 device (the default SoC)."""
    yield from _device("Ascend910B2")


@pytest.fixture
def dev950():
    yield from _device("Ascend950")
