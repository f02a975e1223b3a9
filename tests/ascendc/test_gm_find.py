"""GlobalMemory.find remembers its last answer (a repeated launch asks for the same allocation):
the remembered one is answered only while it is live, and a freed one is not kept alive by it."""
from __future__ import annotations

import gc
import weakref

from opsnn.ascendc import GlobalMemory


def test_find_answers_the_allocation_holding_an_address_and_none_elsewhere():
    gm = GlobalMemory()
    a, b = gm.malloc(100), gm.malloc(1000)
    for _ in range(2):  # the second round is answered from the remembered one where it can be
        assert gm.find(a).base == a and gm.find(a + 511).base == a
        assert gm.find(b + 999).base == b and gm.find(b).base == b
        assert gm.find(a + 512) is None and gm.find(a - 1) is None  # the gap between allocations


def test_a_freed_allocation_is_not_found_nor_kept_alive():
    gm = GlobalMemory()
    a = gm.malloc(4096)
    alloc = gm.find(a)
    data = weakref.ref(alloc.data)
    gm.free(a)
    assert gm.find(a) is None and gm.find(a + 10) is None
    del alloc
    gc.collect()
    assert data() is None
