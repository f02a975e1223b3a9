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
