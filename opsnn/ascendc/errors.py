"""Exceptions of the emulator: what a real device would refuse or fault on."""
from __future__ import annotations


class EmulatorError(Exception):
    """A kernel programming error the emulator refuses: an unsupported Cast pair, queue misuse or
    UB exhaustion when not sanitizing, a wrong operand type."""


class CoreAborted(Exception):
    """Raised inside one core when the sanitizer recorded a finding the core cannot run past
    (a dequeue of an empty queue, say). launch() catches it: the core stops, the others go on."""
