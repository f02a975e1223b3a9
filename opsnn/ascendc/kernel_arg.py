"""What a launch is given per GM_ADDR argument: its bytes and the past-the-tensor ranges its tiling
makes a core touch. Apart from kernel_launch.py so that tilings and the aclnn layer can build them
without importing the emulator."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Padding:
    """Bytes [offset, offset + nbytes) of a kernel argument, counted from its first byte and lying
    past its logical extent, that core `core` may touch by design (a tiling's block padding).

    The sanitizer reports such traffic as ``expected``; any other past-the-tensor byte, from any
    core, is an error. `launch` refuses a declaration for a core outside the launch, one that
    starts inside the tensor, or one that runs past the argument's allocation.

    Parameters
    ----------
    core : int
        The block index of the core allowed to touch the bytes.
    offset : int
        First byte, counted from the argument's first byte; at least the argument's ``nbytes``.
    nbytes : int
        Length of the range in bytes (0: declares nothing).
    """
    core: int
    offset: int
    nbytes: int


@dataclass(frozen=True)
class KernelArg:
    """One GM_ADDR argument: a tensor of `nbytes` logical bytes at `addr` (which may lie inside a
    larger allocation, a workspace say). nbytes is the sanitizer's "past the tensor" bound;
    `padding` declares the only past-the-tensor ranges that are expected, and for which core.

    Parameters
    ----------
    name : str
        The argument's name, as findings report it.
    addr : int
        Its first byte: a GM address inside an allocation of the launch's `GlobalMemory`.
    nbytes : int
        Its logical size in bytes.
    padding : tuple of Padding
        The past-the-tensor ranges the tiling makes the kernel touch, each for one core.
    """
    name: str
    addr: int
    nbytes: int
    padding: tuple[Padding, ...] = ()
