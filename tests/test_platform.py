import pytest

from opsnn.platform import DEFAULT_SOC, SOCS, Platform, get_platform


def test_soc_table():
    rows = {n: (p.aiv_cores, p.aic_cores, p.ub_size, p.system_workspace, p.family) for n, p in SOCS.items()}
    mib16 = 16 * 1024 * 1024
    assert rows == {
        "Ascend910B1": (48, 24, 196352, mib16, "ascend910b"),
        "Ascend910B2": (48, 24, 196352, mib16, "ascend910b"),
        "Ascend910B3": (40, 20, 196352, mib16, "ascend910b"),
        "Ascend910B4": (40, 20, 196352, mib16, "ascend910b"),
        "Ascend950": (64, 32, 245760, mib16, "ascend950"),
    }


def test_kernel_usable_ub():
    assert get_platform("Ascend910B1").kernel_ub == 188416  # below the 8 KiB Select scratch
    assert get_platform("Ascend950").kernel_ub == 253952  # AscendC's vector local size for 3510 (248 KiB)
    assert get_platform("Ascend950").ub_size == 245760  # what its tilings see


def test_default_soc():
    assert DEFAULT_SOC == "Ascend910B2" and get_platform() is SOCS["Ascend910B2"]


def test_unknown_soc_lists_known():
    with pytest.raises(ValueError, match="Ascend910B1.*Ascend950"):
        get_platform("Ascend310P")


def test_custom_platform():
    p = Platform.custom(196608, 48)
    assert (p.ub_size, p.aiv_cores, p.family) == (196608, 48, "ascend910b")
    with pytest.raises(ValueError):
        Platform.custom(-1, 4)
