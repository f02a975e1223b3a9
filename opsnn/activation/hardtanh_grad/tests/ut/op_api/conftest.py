import pytest

from .harness import Device


def _device(soc):
    dev = Device(soc)
    yield dev
    assert dev.close() == [], "the test leaked device resources"


@pytest.fixture
def dev():
    """An Ascend910B2 device (the TBE kernel's functional model)."""
    yield from _device("Ascend910B2")


@pytest.fixture
def dev950():
    """An Ascend950 device (the arch35 DAG kernel on the emulator)."""
    yield from _device("Ascend950")


@pytest.fixture(params=["Ascend910B2", "Ascend950"])
def any_dev(request):
    yield from _device(request.param)
