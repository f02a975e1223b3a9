"""The reports: the per-dtype table on stdout, the JSON and JUnit files."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.atk.compare import short
from opsnn.atk.result import Result


def shapes_label(shapes: list) -> str:
    """The tensors' shapes: one when they agree ([2, 3]), else each ([2, 3] x [3])."""
    tensors = [s for s in shapes if s is not None]
    if not tensors:
        return "scalars"
    return str(tensors[0]) if all(s == tensors[0] for s in tensors) else " x ".join(map(str, tensors))


def summary_table(results: list[Result]) -> str:
    rows: dict[str, list[int]] = {}
    for r in results:
        row = rows.setdefault(r.dtype, [0, 0, 0, 0, 0])
        row[0] += 1
        row[{"passed": 1, "failed": 2, "skipped": 3}[r.status]] += 1
        row[4] += r.refused and r.status == "passed"
    total = [sum(col) for col in zip(*rows.values(), strict=True)] if rows else [0] * 5
    width = max([5, *(len(k) for k in rows)])
    lines = [f"{'dtype':<{width}} {'cases':>6} {'passed':>7} {'failed':>7} {'skipped':>8} {'refused':>8}"]
    for name, row in sorted(rows.items()):
        lines.append(f"{name:<{width}} {row[0]:>6} {row[1]:>7} {row[2]:>7} {row[3]:>8} {row[4]:>8}")
    lines.append(f"{'total':<{width}} {total[0]:>6} {total[1]:>7} {total[2]:>7} {total[3]:>8} {total[4]:>8}")
    return "\n".join(lines)


def counts(results: list[Result]) -> tuple[int, int, int]:
    return tuple(sum(r.status == s for r in results) for s in ("passed", "failed", "skipped"))


def not_compared_with_torch(results: list[Result]) -> list[Result]:
    """Passed cases whose comparison with torch was skipped (torch not importable, no such function):
    under torch semantics they passed against the reference only."""
    return [r for r in results if r.status == "passed" and r.checks.get("torch", {}).get("status") == "skipped"]


def last_line(results: list[Result]) -> str:
    """`N passed, N failed, N skipped`, and the passed cases not compared with torch, when any."""
    passed, failed, skipped = counts(results)
    line = f"{passed} passed, {failed} failed, {skipped} skipped"
    unchecked = len(not_compared_with_torch(results))
    return line + (f" ({unchecked} of the passed not compared with torch)" if unchecked else "")


def warnings_for(results: list[Result]) -> list[str]:
    """One line per reason a comparison with torch was skipped, naming how many cases and which."""
    by_reason: dict[str, list[int]] = {}
    for r in not_compared_with_torch(results):
        by_reason.setdefault(r.checks["torch"]["detail"], []).append(r.id)
    return [f"{len(ids)} case(s) not compared with torch: {why} (ids {id_ranges(ids)})"
            for why, ids in by_reason.items()]


def nan_summary(results: list[Result]) -> str:
    """A line when failures are NaN bits only against torch (what --loose-nan would pass), else ""."""
    failed = [r for r in results if r.status == "failed"]
    nan_only = [r for r in failed if _nan_only_against_torch(r)]
    if not nan_only:
        return ""
    which = "every failure is" if len(nan_only) == len(failed) else f"{len(nan_only)} of the {len(failed)} failures are"
    return (f"{which} NaN bits only, against torch (torch's CPU loops change NaN payloads, docs/atk.md): "
            "--loose-nan counts any NaN equal to any NaN there")


def _nan_only_against_torch(r: Result) -> bool:
    """Failed only by the comparison with torch, and only in NaN bits (not by the reference, not by
    changed inputs)."""
    mismatches = {k: c for k, c in r.checks.items() if c["status"] == "mismatch"}
    return (list(mismatches) == ["torch"] and mismatches["torch"].get("nan_only", False)
            and "changed its inputs" not in r.reason)


def id_ranges(ids: list[int]) -> str:
    """[0, 1, 2, 5, 7, 8] -> '0-2, 5, 7-8'."""
    ids = sorted(ids)
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ", ".join(out)


def write_json(path: str, results: list[Result], meta: dict) -> None:
    passed, failed, skipped = counts(results)
    head = {**meta, "passed": passed, "failed": failed, "skipped": skipped}
    lines = [json.dumps(head)[:-1] + ', "cases": [']  # one line per case: greppable, diffable
    lines += [json.dumps(r.to_json()) + ("," if k + 1 < len(results) else "") for k, r in enumerate(results)]
    Path(path).write_text("\n".join(lines) + "\n]}\n")


def _xml(text: str) -> str:
    """text without the characters XML 1.0 cannot hold (an exception message may have any)."""
    return "".join(c if c in "\t\n\r" or 0x20 <= ord(c) < 0xD800 or 0xE000 <= ord(c) < 0xFFFE
                   or 0x10000 <= ord(c) < 0x110000 else "?" for c in text)


def write_junit(path: str, results: list[Result], meta: dict) -> None:
    import xml.etree.ElementTree as ET
    passed, failed, skipped = counts(results)
    suite_name = f"atk {meta['file_name']}"
    total_time = sum(r.seconds for r in results)
    suites = ET.Element("testsuites", name="opsnn atk", tests=str(len(results)), failures=str(failed),
                        errors="0", skipped=str(skipped), time=f"{total_time:.3f}")
    suite = ET.SubElement(suites, "testsuite", name=suite_name, tests=str(len(results)), failures=str(failed),
                          errors="0", skipped=str(skipped), time=f"{total_time:.3f}")
    props = ET.SubElement(suite, "properties")
    for key in ("aclnn_names", "semantics", "backend", "seed"):
        ET.SubElement(props, "property", name=key, value=str(meta[key]))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"atk.{meta['file_name']}",
                             name=f"case {r.id} {r.dtype} {shapes_label(r.shapes)}", time=f"{r.seconds:.3f}")
        if r.status == "failed":
            ET.SubElement(case, "failure", message=_xml(short(r.reason, 500))).text = _xml(r.reason)
        elif r.status == "skipped":
            ET.SubElement(case, "skipped", message=_xml(r.reason))
        elif r.reason or r.notes:
            ET.SubElement(case, "system-out").text = _xml("; ".join([r.reason, *r.notes]).strip("; "))
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)

