"""The departures from torch the fuzz counts as known (tests/robustness/fuzz_torch.py) are the
ones docs/nan-payloads.md states, with the reason (issue 35 item 17: some were labelled in the
fuzz and nowhere in the docs' table)."""
from __future__ import annotations

from pathlib import Path

from tests.robustness import fuzz_torch

DOC = Path(__file__).parents[2] / "docs" / "nan-payloads.md"


def _rows() -> list[str]:
    text = DOC.read_text()
    table = text[text.index("## torch's own NaN artefacts"):]
    return [line for line in table.splitlines() if line.startswith("| `")]


def test_every_nan_exception_has_a_row():
    rows = _rows()
    for op, dtype in fuzz_torch.NAN_EXCEPTIONS:
        assert any(f"`{op}`" in row and dtype in row.split("|")[2] for row in rows), (op, dtype)


def test_every_other_known_label_has_a_row():
    rows = "\n".join(_rows())
    for op in ("sigmoid_backward", "selu_backward"):
        assert f"`{op}`" in rows
    assert "any other (mixed dtypes)" in rows and "0x7FFFFFFF" in rows  # fuzz_torch.MIXED_NAN
    assert "complex64, complex128" in rows  # fuzz_torch.COMPLEX_ROUNDING
    assert fuzz_torch.COMPLEX_ROUNDING.startswith("sigmoid_backward")


def test_the_complex_label_is_no_wider_than_its_row():
    """fuzz_torch._complex_within: a last-bit difference where torch's vectorised body ran is a
    failure; the same in a scalar-loop element is the documented departure; beyond the bound, or
    a NaN for a number without an overflowing product, is a failure."""
    import numpy as np
    rng = np.random.default_rng(0)
    g = (rng.standard_normal(37) + 1j * rng.standard_normal(37)).astype(np.complex64)
    y = (rng.standard_normal(37) + 1j * rng.standard_normal(37)).astype(np.complex64)
    want = (g * np.conj((1 - y) * y)).astype(np.complex64)

    def nudged(i, ulps=1):
        t = want.copy()
        t.real[i] = np.nextafter(t.real[i], np.float32(np.inf)) if ulps == 1 else t.real[i] * 1.01
        return t
    assert fuzz_torch._complex_within(want.copy(), want, (g, y))
    assert not fuzz_torch._complex_within(nudged(3), want, (g, y))  # vectorised (the first 32 of 37)
    assert fuzz_torch._complex_within(nudged(35), want, (g, y))  # the scalar tail
    assert not fuzz_torch._complex_within(nudged(35, ulps=0), want, (g, y))  # 1 % off: beyond the bound
    t = want.copy()
    t.imag[35] = np.nan
    assert not fuzz_torch._complex_within(t, want, (g, y))
