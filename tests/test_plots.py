"""opsnn.plots: the per-core plan and kernel-stats pictures are written; without matplotlib the error
says how to install it."""
from __future__ import annotations

import builtins
import sys

import pytest

from opsnn import plots

pytest.importorskip("matplotlib")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def plan_rows(cores=5, big=2, tile=256, itemsize=4):
    rows, start = [], 0
    for c in range(cores):
        n = 640 if c < big else 576
        tiles, tail = -(-n // tile), n - (-(-n // tile) - 1) * tile
        rows.append({"core": c, "big": c < big, "start": start, "end": start + n, "tile_num": tiles,
                     "tail_num": tail, "tile_data_num": tile, "pad_bytes": 32 if c == cores - 1 else 0})
        start += n
    return rows


def stats_rows(cores=4):
    return [{"core": c, "gm_to_ub_bytes": 2048 * (c + 1), "ub_to_gm_bytes": 1024 * (c + 1),
             "instructions": {"Compares": 3 + c, "Select": 3 + c, "Cast": 2 * c},
             "peak_ub_bytes": 60000 + 70000 * (c == 3), "ub_size": 196608 if c < 3 else 100000}
            for c in range(cores)]


def assert_png(path):
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5000


def test_core_plan(tmp_path):
    out = plots.plot_core_plan(plan_rows(), tmp_path / "plan.png", "ThresholdGradV2D on 5 cores")
    assert out == tmp_path / "plan.png"
    assert_png(out)


def test_core_plan_to_scale_padding_and_many_tiles(tmp_path):
    rows = plan_rows(cores=48, big=11, tile=8)  # ~80 tiles a core: more marks than drawn one by one
    assert_png(plots.plot_core_plan(rows, tmp_path / "many.png", None, itemsize=4))
    rows[-1]["itemsize"] = 2
    assert_png(plots.plot_core_plan(rows, str(tmp_path / "row_itemsize.png")))


def test_kernel_stats(tmp_path):
    out = plots.plot_kernel_stats(stats_rows(), tmp_path / "stats.png", "ThresholdGradV2D int8")
    assert_png(out)
    one = stats_rows(1)
    one[0]["instructions"] = {}
    assert_png(plots.plot_kernel_stats(one, tmp_path / "one.png"))


def test_no_rows_is_an_error(tmp_path):
    with pytest.raises(ValueError):
        plots.plot_core_plan([], tmp_path / "x.png")
    with pytest.raises(ValueError):
        plots.plot_kernel_stats([], tmp_path / "x.png")


@pytest.mark.parametrize("draw,rows", [(plots.plot_core_plan, plan_rows()), (plots.plot_kernel_stats, stats_rows())])
def test_without_matplotlib_says_how_to_install(draw, rows, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ImportError, match=r"pip install 'opsnn\[plot\]'"):
        draw(rows, tmp_path / "x.png", "t")
    assert not (tmp_path / "x.png").exists()


def test_importing_plots_does_not_import_matplotlib():
    import subprocess
    code = "import sys, opsnn.plots; print('matplotlib' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.split() == ["False"]
