"""Pictures of a tiling plan and of a kernel's work per core (matplotlib, the optional `plot` extra).

    plot_core_plan(rows, path, title)     # rows: `opsnn tiling`'s per-core plan
    plot_kernel_stats(stats, path, title) # stats: `opsnn sanitize --stats`'s per-core counters

Both write a PNG (or any format matplotlib infers from the path's suffix) and return the path.
matplotlib is imported only when a picture is drawn; without it they raise ImportError saying
how to install it. No pyplot, no global backend: a Figure drawn on its own canvas.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

INSTALL_HINT = "pip install 'opsnn[plot]'"
_MAX_TILE_MARKS = 4000  # tile boundaries drawn in all; beyond that a core's full tiles are one bar

BIG, SMALL, TAIL, PAD = "#1f77b4", "#7fb3e0", "#ff7f0e", "#d62728"


def _figure(**kwargs):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(f"plotting needs matplotlib: {INSTALL_HINT}") from None
    return Figure(**kwargs)


def _save(fig, path) -> Path:
    path = Path(path)
    fig.savefig(path, dpi=110)
    return path


def _itemsize(row: Mapping[str, Any], itemsize: int | None) -> int | None:
    return row.get("itemsize", itemsize)


def plot_core_plan(rows: Sequence[Mapping[str, Any]], path: str | Path, title: str | None = None, *,
                   itemsize: int | None = None) -> Path:
    """Draw a per-core tiling plan: each core's element range [start, end) cut into its full tiles
    and its tail tile, the padding past the tensor end, big and small cores; and elements per core.

    rows: dicts with core, big, start, end, tile_num, tail_num, pad_bytes, tile_data_num (elements;
    pad_bytes in bytes). itemsize (or a row's "itemsize") turns pad_bytes into elements so the
    padding is drawn to scale; without it the padding is written beside the bar.
    """
    if not rows:
        raise ValueError("no per-core rows to plot")
    shown = min(len(rows), 64)
    fig = _figure(figsize=(11, 3.6 + 0.2 * shown), layout="constrained")
    plan, per_core = fig.subplots(2, 1, height_ratios=[max(1.6, 0.2 * shown), 2.0])
    marks_per_core = max(1, _MAX_TILE_MARKS // len(rows))
    labels = len(rows) <= 16
    for row in rows:
        core, start, end = int(row["core"]), int(row["start"]), int(row["end"])
        tiles, tail, tile = int(row["tile_num"]), int(row["tail_num"]), int(row["tile_data_num"])
        color = BIG if row["big"] else SMALL
        full = max(0, tiles - 1)
        if full:
            if full <= marks_per_core:
                segments = [(start + k * tile, tile) for k in range(full)]
            else:
                segments = [(start, full * tile)]
            plan.broken_barh(segments, (core - 0.4, 0.8), facecolors=color, edgecolors="white", linewidth=0.5)
        if tiles:  # the tail tile: the core's colour, edged in orange
            plan.broken_barh([(start + full * tile, tail)], (core - 0.4, 0.8), facecolors=color,
                             edgecolors=TAIL, linewidth=1.5)
        pad = int(row.get("pad_bytes", 0))
        size = _itemsize(row, itemsize)
        if pad and size:
            n_pad = pad // size
            plan.broken_barh([(end - n_pad, n_pad)], (core - 0.4, 0.8), facecolors="none", edgecolors=PAD,
                             hatch="////", linewidth=1.0)
        if pad:
            plan.plot([end], [core], marker="<", color=PAD, markersize=6)
            plan.annotate(f"pad {pad} B", (end, core), xytext=(6, 0), textcoords="offset points",
                          va="center", fontsize=8, color=PAD)
        if labels:
            plan.annotate(f"{full} x {tile} + tail {tail}", (start, core), xytext=(2, 0),
                          textcoords="offset points", va="center", fontsize=7, color="black")
    plan.set_xlabel("element offset")
    plan.set_ylabel("core")
    plan.invert_yaxis()
    if len(rows) <= 64:
        plan.set_yticks([int(r["core"]) for r in rows], [f"{r['core']} {'big' if r['big'] else 'small'}"
                                                         for r in rows], fontsize=7 if len(rows) > 16 else 9)
    plan.margins(x=0.06)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    handles = [Patch(facecolor=BIG, label="big core's full tiles"), Patch(facecolor=SMALL, label="small core's"),
               Patch(facecolor="white", edgecolor=TAIL, linewidth=1.5, label="tail tile"),
               Patch(facecolor="none", edgecolor=PAD, hatch="////", label="padding past the tensor end"),
               Line2D([], [], marker="<", color=PAD, linestyle="none", label="core reads/writes past the end")]
    fig.legend(handles=handles, loc="outside upper center", ncols=5, fontsize=8)
    plan.set_title(title or "per-core plan")

    cores = [int(r["core"]) for r in rows]
    sizes = [int(r["end"]) - int(r["start"]) for r in rows]
    per_core.bar(cores, sizes, color=[BIG if r["big"] else SMALL for r in rows])
    per_core.set_xlabel("core")
    per_core.set_ylabel("elements")
    per_core.set_title(f"elements per core ({sum(1 for r in rows if r['big'])} big, "
                       f"{sum(1 for r in rows if not r['big'])} small)")
    return _save(fig, path)


def plot_kernel_stats(stats: Sequence[Mapping[str, Any]], path: str | Path, title: str | None = None) -> Path:
    """Draw a kernel's work per core: bytes GM->UB and UB->GM, vector instructions by kind, peak UB
    use against the UB size.

    stats: dicts with core, gm_to_ub_bytes, ub_to_gm_bytes, instructions ({name: count}),
    peak_ub_bytes, ub_size.
    """
    if not stats:
        raise ValueError("no per-core statistics to plot")
    fig = _figure(figsize=(11, 9), layout="constrained")
    moved, instr, ub = fig.subplots(3, 1)
    cores = [int(s["core"]) for s in stats]
    x = list(range(len(stats)))
    w = 0.4
    moved.bar([i - w / 2 for i in x], [s["gm_to_ub_bytes"] for s in stats], w, label="GM -> UB", color=BIG)
    moved.bar([i + w / 2 for i in x], [s["ub_to_gm_bytes"] for s in stats], w, label="UB -> GM", color=TAIL)
    moved.set_ylabel("bytes")
    moved.set_title("bytes moved per core")
    moved.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    kinds = sorted({k for s in stats for k in s["instructions"]})
    bottom = [0] * len(stats)
    cmap = _colors(len(kinds))
    for kind, color in zip(kinds, cmap, strict=True):
        counts = [int(s["instructions"].get(kind, 0)) for s in stats]
        instr.bar(x, counts, 0.7, bottom=bottom, label=kind, color=color)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    instr.set_ylabel("instructions")
    instr.set_title("vector instructions per core, by kind")
    if kinds:
        instr.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    peaks = [int(s["peak_ub_bytes"]) for s in stats]
    sizes = [int(s["ub_size"]) for s in stats]
    ub.bar(x, peaks, 0.7, color=[PAD if p > u else BIG for p, u in zip(peaks, sizes, strict=True)],
           label="peak UB use")
    ub.step([i - 0.5 for i in x] + [x[-1] + 0.5], sizes + sizes[-1:], where="post", color="black",
            linestyle="--", label="UB size")
    ub.set_ylabel("bytes")
    ub.set_title("peak UB use against UB size")
    ub.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    for axes in (moved, instr, ub):
        axes.set_xticks(x, [str(c) for c in cores] if len(cores) <= 64 else [""] * len(cores))
        axes.set_xlabel("core")
    fig.suptitle(title or "kernel work per core")
    return _save(fig, path)


def _colors(n: int) -> list:
    from matplotlib import colormaps
    cmap = colormaps["tab20" if n > 10 else "tab10"]
    return [cmap(i % cmap.N) for i in range(n)]
