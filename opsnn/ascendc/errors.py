"""Exceptions of the emulator: what a real device would refuse or fault on."""
from __future__ import annotations


class EmulatorError(Exception):
    """A kernel programming error the emulator refuses: an unsupported Cast pair, queue misuse or
    UB exhaustion when not sanitizing, a wrong operand type."""


class ApiContractError(EmulatorError):
    """A call breaking a rule AscendC documents for the API -- a continuous mask past the elements
    of a repeat, a sharedTmpBuffer below the API's minimum -- which CANN's CPU debug checks as well
    (it asserts). The kernel's defect, not a gap of the emulator: the core stops with the finding
    api_contract_violation."""


class CoreAborted(Exception):
    """Raised inside one core when the sanitizer recorded a finding the core cannot run past
    (a dequeue of an empty queue, say). launch() catches it: the core stops, the others go on."""


class CoreFailed(EmulatorError):
    """An error inside one core, told where: the core, the instruction and the kernel's source
    line (C++ kernels). launch() reports it as a core_failed / assert_failed finding and lets the
    other cores run (on_core_error="report"), or raises it once every core has run.

    Parameters
    ----------
    core : int
        The core's block index.
    instruction : str
        The instruction or check that failed ("Cast", "ASSERT", "Trap").
    source : str or None
        ``file:line`` of the call in the kernel's source; None for Python kernels.
    message : str
        What went wrong.
    kind : str
        The finding kind it becomes: ``"core_failed"`` or ``"assert_failed"``.
    """

    def __init__(self, core: int, instruction: str, source: str | None, message: str, kind: str = "core_failed"):
        at = f" at {source}" if source else ""
        super().__init__(f"core {core}: {instruction}{at}: {message}")
        self.core, self.instruction, self.source, self.message, self.kind = core, instruction, source, message, kind
