"""SoC table (docs/threshold-grad-v2d.md §4): what the tiling and the kernel know of the hardware they run on."""
from __future__ import annotations

from dataclasses import dataclass

MiB = 1024 * 1024
SELECT_SCRATCH_BYTES = 8 * 1024  # 910B: Select tensor-scalar mode uses the top 8 KiB of UB


@dataclass(frozen=True)
class Platform:
    name: str
    aiv_cores: int
    aic_cores: int
    ub_size: int  # UB as the tiling sees it (platform API value)
    kernel_ub: int  # bytes the kernel's own buffers may occupy, from UB address 0
    system_workspace: int
    family: str  # "ascend910b" | "ascend950"
    arch: str  # DAV_2201 | DAV_3510 | "custom"

    @classmethod
    def custom(cls, ub_size: int, aiv_cores: int, family: str = "ascend910b") -> Platform:
        """Any (ub_size, aiv_cores) pair, as upstream unit-test fixtures use.

        A custom UB has no reserved Select scratch: the kernel may use all of `ub_size`
        (rounded down to the 32-byte UB alignment)."""
        if ub_size < 0 or aiv_cores < 0:
            raise ValueError(f"ub_size and aiv_cores must be >= 0, got {ub_size}, {aiv_cores}")
        if family not in FAMILIES:
            raise ValueError(f"unknown SoC family {family!r}; known: {', '.join(FAMILIES)}")
        return cls(
            name=f"custom(ub={ub_size},cores={aiv_cores})",
            aiv_cores=aiv_cores,
            aic_cores=aiv_cores // 2,
            ub_size=ub_size,
            kernel_ub=ub_size // 32 * 32,
            system_workspace=16 * MiB,
            family=family,
            arch="custom",
        )


# The 910B platform file says ub_size = 196608; the platform API reports 256 bytes less.
_A2_PHYSICAL_UB = 196608


def _a2(name: str, aiv: int) -> Platform:
    return Platform(name, aiv, aiv // 2, _A2_PHYSICAL_UB - 256, _A2_PHYSICAL_UB - SELECT_SCRATCH_BYTES,
                    16 * MiB, "ascend910b", "DAV_2201")


SOCS: dict[str, Platform] = {
    p.name: p
    for p in (
        _a2("Ascend910B1", 48),
        _a2("Ascend910B2", 48),
        _a2("Ascend910B3", 40),
        _a2("Ascend910B4", 40),
        # The tiling's UB as upstream's unit tests configure ThresholdGradV2D / ThresholdV2 (UB_SIZE 245760,
        # CORE_NUM 64; the real part's values are not public, other UTs use 253952 or 262144: use custom()
        # for those). What a kernel's buffers may occupy is AscendC's own vector local size for
        # __NPU_ARCH__ 3510, 248 KiB (as its 184 KiB for 2201 is _a2's 192 KiB less the Select scratch).
        Platform("Ascend950", 64, 32, 245760, 248 * 1024, 16 * MiB, "ascend950", "DAV_3510"),
    )
}
FAMILIES = ("ascend910b", "ascend950")
DEFAULT_SOC = "Ascend910B2"


def get_platform(name: str | None = None) -> Platform:
    """The named SoC (default Ascend910B2); ValueError listing the known names otherwise."""
    name = DEFAULT_SOC if name is None else name
    try:
        return SOCS[name]
    except KeyError:
        raise ValueError(f"unknown SoC {name!r}; known SoCs: {', '.join(SOCS)}") from None
