"""GmAlloc(0), as upstream's UTs allocate absent optional inputs (cross_entropy_loss_grad's grad_zloss):
a buffer of its own with no bytes, freed like any other; a negative size is refused."""
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.cpudebug.bridge import Session
from opsnn.platform import get_platform


def test_a_zero_byte_allocation_has_an_address_and_no_bytes():
    s = Session(get_platform("Ascend910B1"))
    a, b = s.gm_alloc(0, "t.cpp", 1), s.gm_alloc(0, "t.cpp", 2)
    assert a and b and a != b
    alloc = s._by_host[a]
    assert alloc.size == 0  # a launch binds it as a tensor of 0 bytes: any access is past its end
    s.gm_free(a, "t.cpp", 3)
    s.gm_free(b, "t.cpp", 4)
    with pytest.raises(EmulatorError, match="cannot be negative"):
        s.gm_alloc(-1, "t.cpp", 5)
