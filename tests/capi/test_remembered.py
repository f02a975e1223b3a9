"""Remembered launches (programs/remembered.cpp): a repeated aclnn call runs without Python once
the bridge has planned it and found it one engine pass over device memory -- and a program sees
exactly what it sees with that off (OPSNN_CAPI_REMEMBER=0): the same results, statuses, messages
and warnings, through queued work read back early, executors launched twice or destroyed, memory,
tensors, scalars and workspaces changed between launches, and threads."""
from __future__ import annotations

import os
import subprocess

import pytest

from .conftest import PROGRAMS, values


@pytest.fixture(scope="module")
def remembered(compiled):
    program = compiled(PROGRAMS / "remembered.cpp", std="c++17")

    def run(mode, **env):
        done = subprocess.run([str(program), mode], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "OPSNN_SANITIZE": "", "OPSNN_DEVICE_MODE": "fast", **env})
        assert done.returncode == 0, done.stderr
        return values(done.stdout), done.stderr
    return run


def _without_counts(facts: dict) -> dict:
    return {k: v for k, v in facts.items() if not k.startswith("remembered") and k != "warmed"}


@pytest.mark.parametrize("mode", ["loop", "race", "twice", "changed", "threads", "shared"])
def test_a_program_sees_the_same_with_and_without(remembered, mode):
    on, on_err = remembered(mode)
    off, off_err = remembered(mode, OPSNN_CAPI_REMEMBER="0")
    assert _without_counts(on) == _without_counts(off)
    assert on_err == off_err
    counts = [k for k in on if k.startswith("remembered") or k == "warmed"]
    assert counts and all(off[k] == "0" for k in counts) and all(int(on[k]) > 0 for k in counts)


def test_repeated_launches_run_without_python_and_right(remembered):
    facts, _ = remembered("loop")
    assert facts["bad"] == "0" and facts["wrong"] == "0"
    # the first launches of each stream teach the bridge; every later one is remembered
    assert int(facts["remembered_stream"]) >= 37 and int(facts["remembered_default"]) >= 75


def test_queued_work_read_early_is_handed_to_the_bridge(remembered):
    facts, err = remembered("race")
    assert facts["warmed"] == "1" and facts["racing_copy_msg"] == "race" and facts["right"] == "1"
    assert err.startswith("opsnn: warning: aclrtMemcpy (kind 2) of 64 bytes races work still queued")


def test_the_executor_rules_hold_for_remembered_executors(remembered):
    facts, _ = remembered("twice")
    assert facts["first"] == "0" and facts["second"] == "561103" and facts["second_msg"] == "already_run"
    assert facts["destroyed_launch"] == "561103" and facts["destroyed_msg"] == "destroyed"
    assert facts["small_workspace"] == "361001" and facts["small_workspace_msg"] == "smaller"
    assert facts["retried"] == "0" and facts["right"] == "1"


def test_changes_between_launches_are_seen(remembered):
    facts, _ = remembered("changed")
    assert facts["bad"] == "0" and facts["wrong"] == "0"
    # each change forgets the plan; a call or two later the same calls are remembered again (4 x 5 calls)
    assert int(facts["remembered"]) >= 12


@pytest.mark.parametrize("mode", ["threads", "shared"])
def test_threads_each_on_a_stream_or_all_on_the_default_one(remembered, mode):
    facts, _ = remembered(mode)
    assert facts["bad"] == "0" and facts["wrong"] == "0" and int(facts["remembered"]) >= 90


def test_the_emulator_mode_remembers_nothing(remembered):
    facts, _ = remembered("changed", OPSNN_DEVICE_MODE="emulator")
    assert facts["bad"] == "0" and facts["wrong"] == "0" and facts["remembered"] == "0"
