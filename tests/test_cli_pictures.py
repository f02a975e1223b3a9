"""`opsnn sanitize --stats` (per-core bytes, instructions, UB) and `--plot` for tiling and sanitize."""
import builtins
import json

import pytest

from opsnn import cli


def _json(capsys, *argv):
    assert cli.main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_stats_of_the_reference_example(capsys):
    doc = _json(capsys, "sanitize", "--shape", "2,2", "--stats", "--json")
    (core,) = doc["stats"]
    # one tile: two 256-byte DataCopy reads, one 256-byte write; compare + select in float32
    assert core == {"core": 0, "gm_to_ub_bytes": 512, "ub_to_gm_bytes": 256,
                    "instructions": {"DataCopy": 3, "Compares": 1, "Select": 1},
                    "peak_ub_bytes": 3 * 2 * 6976 * 4 + 6976, "ub_size": 188416}


def test_stats_count_tiles_and_casts(capsys):
    doc = _json(capsys, "sanitize", "--shape", "5000", "--dtype", "int8", "--ub-size", "8192", "--cores", "2",
                "--stats", "--json")
    stats = doc["stats"]
    assert len(stats) == doc["block_dim"] == 2
    assert sum(s["ub_to_gm_bytes"] for s in stats) == 5120  # 5000 int8 rounded up to whole blocks
    for s in stats:
        tiles = s["instructions"]["Compares"]
        assert s["instructions"]["DataCopy"] == 3 * tiles and s["instructions"]["Cast"] == 6 * tiles
        assert s["gm_to_ub_bytes"] == 2 * s["ub_to_gm_bytes"] and s["peak_ub_bytes"] <= s["ub_size"] == 8192


def test_stats_text(capsys):
    assert cli.main(["sanitize", "relu_grad", "--shape", "300", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "GM->UB" in out and "Mul 1" in out and "Duplicate 1" in out


@pytest.mark.parametrize("argv", [["tiling", "--shape", "100003", "--dtype", "float16", "--soc", "Ascend910B3"],
                                  ["sanitize", "--shape", "70000", "--dtype", "bfloat16"],
                                  ["tiling", "relu_grad", "--shape", "9999"]])
def test_plot_writes_a_png(tmp_path, capsys, argv):
    path = tmp_path / "plan.png"
    assert cli.main([*argv, "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_plot_without_matplotlib_says_how_to_install(tmp_path, capsys, monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert cli.main(["tiling", "--shape", "4", "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "opsnn[plot]" in err
    assert not (tmp_path / "x.png").exists()


def test_plot_to_an_unwritable_place_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["tiling", "--shape", "4", "--plot", str(tmp_path / "no" / "such" / "dir" / "x.png")]) == 2
    assert "cannot write" in capsys.readouterr().err
