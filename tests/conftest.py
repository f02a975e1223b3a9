"""Shared test helpers: where the contract lives (../shared beside the checkout)."""
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SPEC_DIR = REPO.parent / "shared" / "spec"


def spec_file(name: str) -> Path:
    path = SPEC_DIR / name
    if not path.is_file():
        pytest.fail(f"contract file {path} is missing: tests expect ../shared/spec beside the checkout",
                    pytrace=False)
    return path
