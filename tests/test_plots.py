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


# --- plans of every scheme, kinds of core, ticks ---------------------------------------------------

def _legend(fig):
    return [t.get_text() for t in fig.legends[0].get_texts()]


def _ticks(axis):
    return [t.get_text() for t in axis.get_ticklabels()]


def test_a_plan_without_tile_fields_is_drawn(tmp_path):
    # The atvoss reports (every operator on Ascend950) give core, role, tile_num, start, end only.
    rows = [{"core": c, "role": "tail" if c == 2 else "former", "first_tile": 4 * c, "tile_num": 4 if c < 2 else 1,
             "start": 1024 * c, "end": min(2500, 1024 * (c + 1)), "pad_bytes": 0} for c in range(3)]
    fig = plots.core_plan_figure(rows, "ReluGrad on Ascend950")
    assert _legend(fig) == ["former cores", "tail core"]
    plan, per_core = fig.axes
    assert _ticks(plan.yaxis) == ["0 former", "1 former", "2 tail"]
    assert per_core.get_title() == "elements per core (2 former, 1 tail)"
    assert_png(plots.plot_core_plan(rows, tmp_path / "atvoss.png"))


def test_former_and_tail_blocks_are_named_so_and_the_legend_is_whole():
    rows = plan_rows(cores=3, big=2)
    for r in rows:
        r["role"] = "former" if r["big"] else "tail"
    assert _legend(plots.core_plan_figure(rows)) == [
        "former cores, full tiles", "tail core, full tiles", "a core's last tile", "padding past the tensor end",
        "core reads/writes past the end"]
    assert _legend(plots.core_plan_figure(plan_rows(cores=3, big=2)))[:2] == [
        "big cores, full tiles", "small core, full tiles"]


def test_one_core_has_whole_core_ticks():
    fig = plots.core_plan_figure(plan_rows(cores=1, big=0))
    per_core = fig.axes[1]
    fig.canvas.draw()
    assert {float(t) for t in per_core.get_xticks() if -0.5 <= t <= 0.5} == {0.0}
    stats = plots.kernel_stats_figure(stats_rows(1))
    stats.canvas.draw()
    assert all(float(t).is_integer() for t in stats.axes[1].get_yticks())  # instruction counts


def test_48_cores_are_labelled_without_running_together():
    fig = plots.kernel_stats_figure(stats_rows(48))
    labels = _ticks(fig.axes[0].xaxis)
    assert labels == [str(c) for c in range(0, 48, 2)]


def test_findings_show_per_core_and_in_the_title():
    findings = [{"core": c, "kind": "gm_write_overlap", "level": "error"} for c in range(3)]
    findings += [{"core": 1, "kind": "local_tensor_overflow", "level": "error"},
                 {"core": 3, "kind": "gm_write_past_tensor", "level": "expected"}]
    fig = plots.kernel_stats_figure(stats_rows(4), "ThresholdGradV2D", findings)
    assert fig.get_suptitle() == "ThresholdGradV2D: 4 sanitizer error(s) on 3 of 4 core(s)"
    panel = fig.axes[3]
    assert panel.get_title() == "sanitizer error findings per core, by kind"
    heights = [[p.get_height() for p in c] for c in panel.containers]
    assert heights == [[1, 1, 1, 0], [0, 1, 0, 0]]  # gm_write_overlap, local_tensor_overflow
    clean = plots.kernel_stats_figure(stats_rows(4), "ThresholdGradV2D", findings[-1:])
    assert len(clean.axes) == 3 and clean.get_suptitle() == "ThresholdGradV2D: sanitizer clean"


@pytest.mark.parametrize("argv", [
    ["tiling", "--shape", "1000,1000", "--soc", "Ascend950"],
    ["tiling", "relu_grad", "--shape", "1000,1000", "--soc", "Ascend950"],
    ["tiling", "--input-shapes", "1000,1", "1,1000", "--soc", "Ascend950"],
    ["tiling", "--shape", "100000", "--ub-size", "65536", "--cores", "8", "--family", "ascend950"],
    ["tiling", "threshold_v2", "--input-shapes", "100000", "1", "--soc", "Ascend950"],
])
def test_ascend950_tilings_plot(tmp_path, capsys, argv):
    from opsnn import cli
    assert cli.main([*argv, "--plot", str(tmp_path / "plan.png")]) == 0
    assert_png(tmp_path / "plan.png")
