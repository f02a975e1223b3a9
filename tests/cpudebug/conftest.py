"""What the C++ kernel tests share: the CPU-debug runtime, built once (or the tests skipped where
this machine cannot build it: no C++ compiler or no shared libpython), and an operator folder in
upstream's layout written from source strings."""
from __future__ import annotations

from pathlib import Path

import pytest

from opsnn.cpudebug import build as kt_build


@pytest.fixture(scope="session")
def runtime() -> Path:
    try:
        return kt_build.build()
    except kt_build.BuildUnavailable as e:
        pytest.skip(f"the CPU-debug runtime cannot be built: {e}")


def op_tree(root: Path, op: str, kernel: str, test: str, extra: dict[str, str] | None = None) -> Path:
    """<root>/<op>/op_kernel/<op>.cpp and <root>/<op>/tests/ut/op_kernel/test_<op>.cpp (extra: more
    files by path relative to <root>/<op>); returns the test's path."""
    (root / op / "op_kernel").mkdir(parents=True)
    tests = root / op / "tests" / "ut" / "op_kernel"
    tests.mkdir(parents=True)
    (root / op / "op_kernel" / f"{op}.cpp").write_text(kernel)
    for rel, text in (extra or {}).items():
        (root / op / rel).write_text(text)
    (tests / f"test_{op}.cpp").write_text(test)
    return tests / f"test_{op}.cpp"
