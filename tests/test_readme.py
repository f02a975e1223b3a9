"""Every ```python block of the README runs, in order, in one namespace (as a reader would paste them)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.S | re.M)


def test_readme_has_the_three_uses_first():
    assert len(BLOCKS) >= 3
    head = README.read_text().splitlines()
    assert head[2].lstrip().startswith("make demo") and head[3].lstrip().startswith("make test")
    firsts = "\n".join(BLOCKS[:3])
    assert "import opsnn\n" in BLOCKS[0] and "opsnn.torch" in BLOCKS[1] and "opsnn.dask" in BLOCKS[2], firsts


def test_every_python_block_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("dask.array")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "readme"}
    for i, block in enumerate(BLOCKS):
        try:
            exec(compile(block, f"README.md block {i + 1}", "exec"), namespace)
        except Exception as e:  # say which block
            raise AssertionError(f"README block {i + 1} failed: {e!r}\n{block}") from e
    out = capsys.readouterr().out
    assert "[0.  4.4 4.3 4.2]" in out and "[0.  4.4 0.  4.2]" in out
