"""opsnn.ascendc's names load on first use (its __init__'s table): each one named there is found in
the module the table names, none is missing, and a name it lacks is an AttributeError."""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import opsnn.ascendc as ascendc


@pytest.mark.parametrize("name", ascendc.__all__)
def test_each_name_comes_from_the_module_the_table_names(name):
    module = importlib.import_module(f"opsnn.ascendc.{ascendc._WHERE[name]}")
    assert getattr(ascendc, name) is getattr(module, name)
    assert name in dir(ascendc)


def test_every_public_module_name_is_exported_once():
    names = [n for names in ascendc._MODULES.values() for n in names]
    assert len(names) == len(set(names)) == len(ascendc.__all__)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'NoSuchInstruction'"):
        ascendc.NoSuchInstruction  # noqa: B018
    with pytest.raises(ImportError):
        exec("from opsnn.ascendc import NoSuchInstruction")


def test_importing_one_name_does_not_import_the_emulator():
    code = ("import sys\nfrom opsnn.ascendc import Padding\nfrom opsnn.ascendc.gm import GMError\n"
            "print(sorted(m for m in sys.modules if m.startswith('opsnn.ascendc.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['opsnn.ascendc.gm', 'opsnn.ascendc.kernel_arg']"


def test_launch_is_the_function_after_its_module_is_imported():
    importlib.import_module("opsnn.ascendc.kernel_launch")
    assert callable(ascendc.launch) and ascendc.launch.__name__ == "launch"
