"""Pictures of a tiling plan and of a kernel's work per core (matplotlib, the optional `plot` extra).

    plot_core_plan(rows, path, title)     # rows: `opsnn tiling`'s per-core plan
    plot_kernel_stats(stats, path, title, findings)  # `opsnn sanitize --stats`'s per-core counters
                                                     # and the sanitizer's findings

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


_ROLE_COLORS = (BIG, SMALL, "#2ca02c", "#9467bd", "#8c564b")
_MAX_CORE_LABELS = 24  # core numbers on an axis; more are thinned out so they do not run together


def _role(row: Mapping[str, Any]) -> str:
    """A core's kind in the plan: the row's "role" (ThresholdV2's former/tail blocks), else big or
    small from "big", else just "core" (a plan without kinds)."""
    if "role" in row:
        return str(row["role"])
    if "big" in row:
        return "big" if row["big"] else "small"
    return "core"


def _integer_axis(axis) -> None:
    from matplotlib.ticker import MaxNLocator
    axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))  # whole numbers even on a short range


def _core_ticks(axes, x: Sequence[int], cores: Sequence[int]) -> None:
    """Core numbers under bars at positions x: every one up to _MAX_CORE_LABELS, else every k-th."""
    step = -(-len(cores) // _MAX_CORE_LABELS)
    axes.set_xticks(list(x)[::step], [str(c) for c in cores][::step])


def plot_core_plan(rows: Sequence[Mapping[str, Any]], path: str | Path, title: str | None = None, *,
                   itemsize: int | None = None) -> Path:
    """Draw a per-core tiling plan: each core's element range [start, end), cut into its full tiles
    and its last tile when the rows say how, the padding past the tensor end, the kinds of core; and
    elements per core.

    rows: dicts with core, start, end (elements), and optionally: role (the core's kind, e.g.
    "former"/"tail") or big (True: "big", False: "small"); tile_num, tail_num, tile_data_num (the
    core's tiles, the elements of its last one and of a full one: drawn tile by tile when all three
    are given, else the range is one bar labelled with tile_num); pad_bytes (bytes past the tensor
    end). itemsize (or a row's "itemsize") turns pad_bytes into elements so the padding is drawn to
    scale; without it the padding is written beside the bar.
    """
    return _save(core_plan_figure(rows, title, itemsize=itemsize), path)


def core_plan_figure(rows: Sequence[Mapping[str, Any]], title: str | None = None, *, itemsize: int | None = None):
    """plot_core_plan's Figure, not saved."""
    if not rows:
        raise ValueError("no per-core rows to plot")
    roles = list(dict.fromkeys(_role(r) for r in rows))
    color = {role: _ROLE_COLORS[i % len(_ROLE_COLORS)] for i, role in enumerate(roles)}
    shown = min(len(rows), 64)
    fig = _figure(figsize=(11, 3.6 + 0.2 * shown), layout="constrained")
    plan, per_core = fig.subplots(2, 1, height_ratios=[max(1.6, 0.2 * shown), 2.0])
    marks_per_core = max(1, _MAX_TILE_MARKS // len(rows))
    labels = len(rows) <= 16
    tiled = padded = False
    for row in rows:
        core, start, end = int(row["core"]), int(row["start"]), int(row["end"])
        face = color[_role(row)]
        if all(k in row for k in ("tile_num", "tail_num", "tile_data_num")):
            tiled = True
            tiles, tail, tile = int(row["tile_num"]), int(row["tail_num"]), int(row["tile_data_num"])
            full = max(0, tiles - 1)
            if full:
                segments = [(start + k * tile, tile) for k in range(full)] if full <= marks_per_core \
                    else [(start, full * tile)]
                plan.broken_barh(segments, (core - 0.4, 0.8), facecolors=face, edgecolors="white", linewidth=0.5)
            if tiles:  # the last tile: the core's colour, edged in orange
                plan.broken_barh([(start + full * tile, tail)], (core - 0.4, 0.8), facecolors=face,
                                 edgecolors=TAIL, linewidth=1.5)
            note = f"{full} x {tile} + last {tail}"
        else:
            plan.broken_barh([(start, end - start)], (core - 0.4, 0.8), facecolors=face, edgecolors="white",
                             linewidth=0.5)
            note = f"{int(row['tile_num'])} tile(s)" if "tile_num" in row else ""
        pad = int(row.get("pad_bytes", 0))
        size = _itemsize(row, itemsize)
        if pad and size:
            n_pad = pad // size
            plan.broken_barh([(end - n_pad, n_pad)], (core - 0.4, 0.8), facecolors="none", edgecolors=PAD,
                             hatch="////", linewidth=1.0)
        if pad:
            padded = True
            plan.plot([end], [core], marker="<", color=PAD, markersize=6)
            plan.annotate(f"pad {pad} B", (end, core), xytext=(6, 0), textcoords="offset points",
                          va="center", fontsize=8, color=PAD)
        if labels and note:
            plan.annotate(note, (start, core), xytext=(2, 0), textcoords="offset points", va="center",
                          fontsize=7, color="black")
    plan.set_xlabel("element offset")
    plan.set_ylabel("core")
    plan.invert_yaxis()
    if len(rows) <= 64:
        plan.set_yticks([int(r["core"]) for r in rows], [f"{r['core']} {_role(r)}" for r in rows],
                        fontsize=7 if len(rows) > 16 else 9)
    else:
        _integer_axis(plan.yaxis)
    plan.margins(x=0.06)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    counts = {role: sum(1 for r in rows if _role(r) == role) for role in roles}
    handles = [Patch(facecolor=color[role], label=f"{role} {'core' if counts[role] == 1 else 'cores'}"
                     + (", full tiles" if tiled else "")) for role in roles]
    if tiled:
        handles.append(Patch(facecolor="white", edgecolor=TAIL, linewidth=1.5, label="a core's last tile"))
    if padded:
        handles += [Patch(facecolor="none", edgecolor=PAD, hatch="////", label="padding past the tensor end"),
                    Line2D([], [], marker="<", color=PAD, linestyle="none", label="core reads/writes past the end")]
    fig.legend(handles=handles, loc="outside upper center", ncols=len(handles), fontsize=8)
    plan.set_title(title or "per-core plan")

    cores = [int(r["core"]) for r in rows]
    sizes = [int(r["end"]) - int(r["start"]) for r in rows]
    per_core.bar(cores, sizes, color=[color[_role(r)] for r in rows])
    _core_ticks(per_core, cores, cores)
    per_core.set_xlabel("core")
    per_core.set_ylabel("elements")
    per_core.set_title("elements per core" + ("" if roles == ["core"] else
                                              f" ({', '.join(f'{n} {role}' for role, n in counts.items())})"))
    return fig


def plot_kernel_stats(stats: Sequence[Mapping[str, Any]], path: str | Path, title: str | None = None,
                      findings: Sequence[Mapping[str, Any]] | None = None) -> Path:
    """Draw a kernel's work per core: bytes GM->UB and UB->GM, vector instructions by kind, peak UB
    use against the UB size; and, given the sanitizer's findings, the error findings per core (the
    title says how many).

    stats: dicts with core, gm_to_ub_bytes, ub_to_gm_bytes, instructions ({name: count}),
    peak_ub_bytes, ub_size. findings: dicts with core, kind and level ("error" or "expected"),
    as `Finding.to_dict()` gives them.
    """
    return _save(kernel_stats_figure(stats, title, findings), path)


def kernel_stats_figure(stats: Sequence[Mapping[str, Any]], title: str | None = None,
                        findings: Sequence[Mapping[str, Any]] | None = None):
    """plot_kernel_stats's Figure, not saved."""
    if not stats:
        raise ValueError("no per-core statistics to plot")
    errors = [f for f in findings or () if f["level"] == "error"]
    fig = _figure(figsize=(11, 12 if errors else 9), layout="constrained")
    panels = fig.subplots(4 if errors else 3, 1)
    moved, instr, ub = panels[:3]
    cores = [int(s["core"]) for s in stats]
    x = list(range(len(stats)))
    w = 0.4
    moved.bar([i - w / 2 for i in x], [s["gm_to_ub_bytes"] for s in stats], w, label="GM -> UB", color=BIG)
    moved.bar([i + w / 2 for i in x], [s["ub_to_gm_bytes"] for s in stats], w, label="UB -> GM", color=TAIL)
    moved.set_ylabel("bytes")
    moved.set_title("bytes moved per core")
    moved.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))

    kinds = sorted({k for s in stats for k in s["instructions"]})
    _stacked(instr, x, [{k: int(s["instructions"].get(k, 0)) for k in kinds} for s in stats], kinds)
    instr.set_ylabel("instructions")
    instr.set_title("vector instructions per core, by kind")

    peaks = [int(s["peak_ub_bytes"]) for s in stats]
    sizes = [int(s["ub_size"]) for s in stats]
    ub.bar(x, peaks, 0.7, color=[PAD if p > u else BIG for p, u in zip(peaks, sizes, strict=True)],
           label="peak UB use")
    ub.step([i - 0.5 for i in x] + [x[-1] + 0.5], sizes + sizes[-1:], where="post", color="black",
            linestyle="--", label="UB size")
    ub.set_ylabel("bytes")
    ub.set_title("peak UB use against UB size")
    ub.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = title or "kernel work per core"
    if errors:
        at = {c: i for i, c in enumerate(cores)}
        found = sorted({f["kind"] for f in errors})
        per = [dict.fromkeys(found, 0) for _ in x]
        for f in errors:
            per[at[int(f["core"])]][f["kind"]] += 1
        _stacked(panels[3], x, per, found)
        panels[3].set_ylabel("findings")
        panels[3].set_title("sanitizer error findings per core, by kind", color=PAD)
        hit = sum(1 for p in per if any(p.values()))
        fig.suptitle(f"{title}: {len(errors)} sanitizer error(s) on {hit} of {len(cores)} core(s)", color=PAD)
    else:
        fig.suptitle(title + (": sanitizer clean" if findings is not None else ""))
    for axes in panels:
        _core_ticks(axes, x, cores)
        axes.set_xlabel("core")
    return fig


def _stacked(axes, x: list[int], per_core: list[dict], kinds: list[str]) -> None:
    """Bars of per-core counts, stacked by kind, with a legend; whole-number ticks."""
    bottom = [0] * len(x)
    for kind, color in zip(kinds, _colors(len(kinds)), strict=True):
        counts = [p[kind] for p in per_core]
        axes.bar(x, counts, 0.7, bottom=bottom, label=kind, color=color)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    _integer_axis(axes.yaxis)
    if kinds:
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def _colors(n: int) -> list:
    from matplotlib import colormaps
    cmap = colormaps["tab20" if n > 10 else "tab10"]
    return [cmap(i % cmap.N) for i in range(n)]
