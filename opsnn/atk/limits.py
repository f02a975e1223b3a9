"""What a case may take: elements per tensor (--max-elements) and an estimate of its memory against
what this process may still allocate; a case beyond either is skipped, with the reason."""
from __future__ import annotations

import os
from pathlib import Path

from opsnn.atk.cases import Case
from opsnn.atk.inputs import CHUNK

DEFAULT_MAX_ELEMENTS = 1 << 24  # per tensor, fast and reference backends
DEFAULT_MAX_ELEMENTS_EMULATOR = 1 << 22  # the emulators take ~0.1 s per M elements (measured), a little more than fast
WORKER_BYTES = 1 << 28  # a process with opsnn and torch loaded, beyond its arrays
MEMORY_SHARE = 0.8  # of the memory available (per job) a case may be estimated to need


def available_memory() -> int:
    """Bytes this process may still allocate: MemAvailable (else os.sysconf's free pages), capped by
    a cgroup v2 limit when there is one."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            avail = 1 << 62
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text())
            avail = min(avail, max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    return avail


def estimate_bytes(case: Case) -> int:
    """What running the case holds at once: its tensors, then three results (backend, reference,
    torch) and float64 temporaries of the result's size (measured: a 32 M-element float64 case
    peaks at 1.8 GiB, float16 at 0.9 GiB, torch and the fast engine loaded)."""
    inputs = sum(i.elements * i.np_dtype.itemsize for i in case.tensors)
    itemsize = max([i.np_dtype.itemsize for i in case.tensors] or [8])
    return inputs + case.out_elements * (3 * max(itemsize, 4) + 24) + CHUNK * 8 + WORKER_BYTES


def skip_reason(case: Case, max_elements: int, memory: int) -> str:
    if max_elements and case.max_elements > max_elements:
        return f"{case.max_elements} elements in a tensor, more than --max-elements {max_elements}"
    need = estimate_bytes(case)
    if need > memory:
        return (f"needs about {need / 2**30:.1f} GiB, more than the {memory / 2**30:.1f} GiB of memory "
                "available to a job")
    return ""

