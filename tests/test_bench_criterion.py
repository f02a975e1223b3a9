"""The bench's criterion (issue 27 item 17): which cells are memory-bound, and whether a cell meets it.
No timing here: the classification and the rule, on fake machine facts."""
import importlib.util
from pathlib import Path

import pytest

from opsnn.engine.machine import Cache, Facts

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def measure():
    spec = importlib.util.spec_from_file_location("opsnn_bench_measure", ROOT / "benchmarks" / "measure.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def facts(l2_shared=((0,), (1,)), cores=2, l3=480 << 20):
    """The 2-vCPU Xeon's facts (L2 2 MiB per core, a 480 MiB L3 shared), the L2's sharing as given."""
    caches = (Cache(1, "Data", 48 << 10, (0,)), Cache(2, "Unified", 2 << 20, l2_shared[0]),
              Cache(3, "Unified", l3, tuple(range(cores))))
    return Facts("Xeon", ("avx2",), cores, cores, tuple(range(cores)), caches, "sysfs", ())


def test_private_bytes_sum_the_cores_l2(measure):
    assert measure.private_cache_bytes(facts()) == 4 << 20
    # an L2 shared by both cores counts once
    assert measure.private_cache_bytes(facts(l2_shared=((0, 1),))) == 2 << 20
    assert measure.private_cache_bytes(facts(cores=1)) == 2 << 20


def test_private_bytes_unknown_without_an_l2(measure):
    bare = Facts("x", (), 2, 2, (0, 1), (Cache(1, "Data", 32 << 10, (0,)),), "sysfs", ())
    assert measure.private_cache_bytes(bare) is None
    assert not measure.is_memory_bound(1 << 40, None)  # unknown: the stricter (cache) criterion


@pytest.mark.parametrize("n, itemsize, bound", [
    (4 << 10, 4, False),   # 4 K float32, 48 KiB moved
    (64 << 10, 4, False),  # 64 K float32, 768 KiB
    (1 << 20, 1, False),   # 1 M int8: 3 MiB, within 2 x 2 MiB (issue 27's 0.27x cell: must beat torch)
    (1 << 20, 4, True),    # 1 M float32: 12 MiB
    (16 << 20, 1, True),   # 16 M int8: 48 MiB (within the 480 MiB 'L3', still memory-bound)
])
def test_cells_of_the_xeon(measure, n, itemsize, bound):
    private = measure.private_cache_bytes(facts())
    assert measure.is_memory_bound(3 * n * itemsize, private) is bound


def test_boundary_is_inclusive(measure):
    assert not measure.is_memory_bound(4 << 20, 4 << 20)
    assert measure.is_memory_bound((4 << 20) + 1, 4 << 20)


@pytest.mark.parametrize("bound, ratio, roof, meets", [
    (False, 1.0, 0.1, True),    # cache-resident: the ratio alone, >= 1.0
    (False, 0.99, 1.0, False),
    (True, 0.9, 0.9, True),     # memory-bound: both >= 0.9
    (True, 0.89, 1.0, False),
    (True, 1.5, 0.89, False),   # faster than torch, but below the copy roof's 0.9
    (True, 0.95, 0.95, True),
])
def test_criterion(measure, bound, ratio, roof, meets):
    assert measure.meets_criterion(bound, ratio, roof) is meets
