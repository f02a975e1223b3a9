"""CLI edges found by using it as a new user would: closed pipes, sizes beyond int64, where --plot
writes, --family without a custom platform, help texts, grouped findings, the functional model."""
import json
import subprocess
import sys

import numpy as np
import pytest

from opsnn import cli
from opsnn.ascendc import findings as findings_module
from opsnn.ascendc.findings import Finding
from opsnn.ascendc.kernel_launch import LaunchReport


def _fails(capsys, argv, message):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert message in captured.err, captured.err


@pytest.mark.parametrize("argv", [
    ["sanitize", "--shape", "1000000", "--ub-size", "8192", "--cores", "3000", "--stats", "--verbose"],
    ["tiling", "--shape", "100000000", "--ub-size", "196608", "--cores", "65535"],
])
def test_a_closed_pipe_ends_quietly(argv):
    # `| head -1`: the reader leaves after one line, long before the megabytes after it (more
    # than a pipe holds, so the writer meets the closed pipe).
    proc = subprocess.Popen([sys.executable, "-m", "opsnn.cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == "", err


@pytest.mark.parametrize("shape", ["18446744073709551616", "4294967296,4294967296", "9223372036854775808"])
def test_shapes_beyond_int64_are_refused(capsys, shape):
    _fails(capsys, ["tiling", "--shape", shape], "more elements than an int64 counts")
    _fails(capsys, ["tiling", "--input-shapes", "4", shape], "bad --input-shapes")


def test_the_largest_int64_element_count_is_not_refused_for_its_size():
    assert cli.parse_shape("9223372036854775807") == (2**63 - 1,)


def test_plot_into_a_directory_is_refused(capsys, tmp_path):
    _fails(capsys, ["tiling", "--shape", "4", "--plot", f"{tmp_path}/"], "is a directory")
    _fails(capsys, ["tiling", "--shape", "4", "--plot", str(tmp_path)], "is a directory")
    assert list(tmp_path.parent.glob(f"{tmp_path.name}.png")) == []


def test_plot_without_suffix_gets_png_and_says_where(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert cli.main(["tiling", "--shape", "4", "--json", "--plot", str(tmp_path / "plan")]) == 0
    captured = capsys.readouterr()
    json.loads(captured.out)  # stdout stays one JSON object
    assert captured.err == f"plot written to {(tmp_path / 'plan.png').resolve()}\n"
    assert (tmp_path / "plan.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_with_an_unknown_format_exits_2(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    _fails(capsys, ["tiling", "--shape", "4", "--plot", str(tmp_path / "plan.xyz")], "cannot write")


def test_family_without_a_custom_platform_is_an_error(capsys):
    _fails(capsys, ["tiling", "--shape", "4", "--family", "ascend950"], "--family describes a custom platform")
    _fails(capsys, ["tiling", "--shape", "4", "--soc", "Ascend910B2", "--family", "ascend950"], "--family")


def test_family_with_a_custom_platform_picks_the_scheme(capsys):
    assert cli.main(["tiling", "--shape", "4", "--ub-size", "196608", "--cores", "8", "--family", "ascend950",
                     "--json"]) == 0
    assert "schedule_mode" in json.loads(capsys.readouterr().out)  # the arch35 tiling
    assert cli.main(["tiling", "--shape", "4", "--ub-size", "196608", "--cores", "8", "--json"]) == 0
    assert "small_core_data_num" in json.loads(capsys.readouterr().out)  # ascend910b by default


def test_help_has_no_empty_defaults(capsys):
    with pytest.raises(SystemExit):
        cli.main(["sanitize", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in out and "(default: False)" not in out
    assert "without it and without --ub-size/--cores: Ascend910B2" in out
    assert "(default: float32)" in out  # real defaults are still shown


def test_example_is_offered_only_where_there_is_one(capsys):
    assert cli.main(["--help"]) == 0
    listing = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")
               and line.split()[0] in ("relu_grad", "threshold_grad_v2_d")}
    assert listing["relu_grad"].endswith("[no example]") and "[no example]" not in listing["threshold_grad_v2_d"]
    _fails(capsys, ["example", "relu_grad"], "operator relu_grad has no example of its own; those with one: "
                                             "hardtanh_grad, leaky_relu_grad, selu_grad, sigmoid_grad, "
                                             "softshrink_grad, threshold_grad_v2_d, threshold_v2")
    _fails(capsys, ["example", "relu_grad", "--help"], "has no example")


# --- grouped findings -------------------------------------------------------------------------

def _finding(core, kind="gm_write_overlap", offset=None, tile=0):
    return Finding(kind, core, tile, "DataCopy", "y", 256 * core if offset is None else offset, 64, "why")


def test_repeated_findings_are_one_line_each_and_verbose_lists_all():
    findings = [_finding(c, k) for c in range(48) for k in ("gm_write_overlap", "local_tensor_overflow")]
    findings += [_finding(5, "ub_read_before_write")]
    report = LaunchReport(block_dim=48, findings=findings)
    assert findings_module.format_report(report) == [
        "[error] gm_write_overlap: DataCopy y: 48 findings on core(s) 0-47; first: core 0 tile 0 +0 (64 B): why",
        "[error] local_tensor_overflow: DataCopy y: 48 findings on core(s) 0-47; first: core 0 tile 0 +0 (64 B): why",
        "[error] ub_read_before_write: core 5 tile 0 DataCopy y +1280 (64 B): why",
        "97 finding(s): 97 error(s), 0 expected; one line per finding with --verbose"]
    verbose = findings_module.format_report(report, verbose=True)
    assert len(verbose) == 98 and verbose[-1] == "97 finding(s): 97 error(s), 0 expected"


def test_core_ranges():
    assert findings_module._ranges([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"
    assert findings_module._ranges([3]) == "3"


def test_the_sanitize_text_groups_and_ends_with_the_model(capsys):
    assert cli.main(["sanitize", "--shape", "1000", "--dtype", "int8", "--ub-size", "8192", "--cores", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == "3 finding(s): 0 error(s), 3 expected - clean"
    assert lines[-1] == "functional model: the outputs match it bit for bit"


# --- the functional model ---------------------------------------------------------------------

def _shift_outputs(monkeypatch, tools_module, name):
    """Make the tools' runs' kernels write their output one element late (no sanitizer finding:
    the bytes stay inside the tensor), as a kernel with a wrong window would."""
    real = tools_module.prepare_run

    def prepare(request, seed=0):
        run = real(request, seed)
        kernel = run.run_kernel

        def shifted(**kw):
            report = kernel(**kw)
            out = kw["gm"].bytes_view(kw[name].addr, kw[name].nbytes)
            item = run.output_dtypes[name].itemsize
            out[item:] = out[:-item].copy()
            return report
        run.run_kernel = shifted
        return run
    monkeypatch.setattr(tools_module, "prepare_run", prepare)


@pytest.mark.parametrize("op, module, output, argv", [
    ("threshold_grad_v2_d", "opsnn.activation.threshold_grad_v2_d.tools", "output_backprops", []),
    ("threshold_grad_v2_d", "opsnn.activation.threshold_grad_v2_d.tools", "out", ["--soc", "Ascend950"]),
    ("relu_grad", "opsnn.activation.relu_grad.tools", "backprops", []),
    ("threshold_v2", "opsnn.activation.threshold_v2.tools", "y", ["--input-shapes", "4096", "1",
                                                                   "--soc", "Ascend950"]),
])
def test_outputs_that_differ_from_the_model_exit_1(capsys, monkeypatch, op, module, output, argv):
    import importlib
    _shift_outputs(monkeypatch, importlib.import_module(module), output)
    shape = [] if "--input-shapes" in argv else ["--shape", "4096"]
    assert cli.main(["sanitize", op, *shape, *argv, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [f for f in doc["findings"] if f["level"] == "error"] == []  # the sanitizer saw nothing
    (m,) = doc["model_mismatches"]
    assert m["output"] == output and m["total"] == 4096 and 0 < m["count"] <= 4095
    assert m["first"] == sorted(m["first"]) and len(m["first"]) == min(8, m["count"])
    assert cli.main(["sanitize", op, *shape, *argv]) == 1
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"functional model: MISMATCH {output}: {m['count']} of 4096 element(s) differ")


def test_compare_bits_counts_nan_payloads_and_signed_zeros():
    from opsnn.op_common.kernel_run import compare_bits
    got = np.array([0.0, np.nan, 1.0, -0.0], np.float32)
    assert compare_bits("y", got, got.copy()) is None
    m = compare_bits("y", got, np.array([-0.0, -np.nan, 1.0, -0.0], np.float32))
    assert (m.output, m.count, m.total, m.first) == ("y", 2, 4, (0, 1))
