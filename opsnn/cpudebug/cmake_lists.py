"""The part of CMake's language an operator's test CMakeLists.txt is written in, evaluated as CMake
evaluates it: `set`, `list(APPEND)`, `if`/`elseif`/`else` (AND, OR, NOT, parentheses, DEFINED,
EXISTS, TARGET, IN_LIST, STREQUAL, MATCHES, EQUAL), `foreach`, variable references and CMake's
list splitting (an unquoted argument splits on `;`, a quoted one stays whole). Upstream's build
chooses a UT's SoCs and options through exactly these (cmake/ut.cmake's AddOpTestCase, and
`if("ascend950" IN_LIST ASCEND_COMPUTE_UNIT)` branches per SoC), so opsnn reads them the same way
rather than by pattern. Commands it does not model are skipped; `calls` records the ones a caller
asks for (AddOpTestCase, add_custom_target) with their arguments expanded.

No library parses CMake from Python (cmake itself only runs whole projects, with a toolkit), hence
this small evaluator."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path


class CMakeError(ValueError):
    """A CMakeLists.txt this evaluator cannot read (unbalanced parentheses or blocks)."""


@dataclass
class Arg:
    text: str
    quoted: bool


@dataclass
class Command:
    name: str  # lower case: CMake command names are case-insensitive
    args: list[Arg]
    line: int


_BARE = re.compile(r'[^\s()"#]+')


def parse(text: str) -> list[Command]:
    """The command invocations of a CMake script, in order (comments dropped)."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        else:
            m = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(").match(text, i)
            if m is None:  # stray text: skip the line, as a reader that knows only commands must
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            start_line = line
            args, i, line = _parse_args(text, m.end(), line)
            out.append(Command(m.group(1).lower(), args, start_line))
    return out


def _parse_args(text: str, i: int, line: int) -> tuple[list[Arg], int, int]:
    """The arguments after a command's `(`, up to its matching `)`; nested parentheses are kept as
    `(` / `)` arguments (if() conditions group with them)."""
    args, depth, n = [], 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch == "(":
            depth += 1
            args.append(Arg("(", False))
            i += 1
        elif ch == ")":
            if depth == 0:
                return args, i + 1, line
            depth -= 1
            args.append(Arg(")", False))
            i += 1
        elif ch == '"':
            j, buf = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    if nxt == "\n":  # a line continuation inside a quoted argument
                        line += 1
                    else:
                        buf.append({"n": "\n", "t": "\t", ";": "\\;"}.get(nxt, nxt))
                    j += 2
                    continue
                if text[j] == "\n":
                    line += 1
                buf.append(text[j])
                j += 1
            if j >= n:
                raise CMakeError(f"line {line}: unterminated quoted argument")
            args.append(Arg("".join(buf), True))
            i = j + 1
        else:
            m = _BARE.match(text, i)
            args.append(Arg(m.group(0), False))
            i = m.end()
    raise CMakeError(f"line {line}: a command's parentheses do not close")


_FALSE = {"", "0", "off", "no", "false", "n", "ignore", "notfound"}
_VAR_REF = re.compile(r"\$(ENV)?\{([^${}]*)\}")


def is_true(value: str) -> bool:
    """CMake's truth of a constant."""
    v = value.strip().lower()
    return not (v in _FALSE or v.endswith("-notfound"))


def split_list(value: str) -> list[str]:
    """A CMake list's elements (split on `;`, not on an escaped `\\;`), empties dropped."""
    parts = re.split(r"(?<!\\);", value)
    return [p.replace("\\;", ";") for p in parts if p]


@dataclass
class Scope:
    """Variables and what the evaluated script did."""
    variables: dict[str, str] = field(default_factory=dict)
    targets: set[str] = field(default_factory=set)
    calls: list[tuple[str, list[str], int]] = field(default_factory=list)  # (command, args, line)

    def expand(self, text: str) -> str:
        for _ in range(32):  # nested references expand from the inside out
            new = _VAR_REF.sub(lambda m: os.environ.get(m.group(2), "") if m.group(1)
                               else self.variables.get(m.group(2), ""), text)
            if new == text:
                break
            text = new
        return text

    def values(self, args: list[Arg]) -> list[str]:
        """Arguments as CMake passes them to a command: quoted ones whole, unquoted ones split as lists."""
        out = []
        for a in args:
            if a.quoted:
                out.append(self.expand(a.text))
            else:
                out.extend(split_list(self.expand(a.text)))
        return out


class Evaluator:
    """Runs a parsed script in a Scope; `recorded` names the commands whose calls are kept
    (their expanded arguments), `creates_targets` maps such a command to the target names a call
    creates (for `if(TARGET ...)`)."""

    def __init__(self, scope: Scope, recorded: set[str], creates_targets=None):
        self.scope = scope
        self.recorded = recorded
        self.creates_targets = creates_targets or (lambda name, args: [])

    def run(self, commands: list[Command]) -> None:
        i = 0
        while i < len(commands):
            i = self._step(commands, i)

    def _step(self, commands: list[Command], i: int) -> int:
        c = commands[i]
        if c.name == "if":
            return self._if(commands, i)
        if c.name == "foreach":
            return self._foreach(commands, i)
        if c.name in ("function", "macro", "while"):
            return _block_end(commands, i, c.name, "end" + c.name) + 1
        if c.name == "set":
            self._set(c)
        elif c.name == "unset":
            args = self.scope.values(c.args)
            if args:
                self.scope.variables.pop(args[0], None)
        elif c.name == "list":
            self._list(c)
        elif c.name == "add_custom_target":
            args = self.scope.values(c.args)
            if args:
                self.scope.targets.add(args[0])
        if c.name in self.recorded:
            args = self.scope.values(c.args)
            self.scope.calls.append((c.name, args, c.line))
            self.scope.targets.update(self.creates_targets(c.name, args))
        return i + 1

    def _set(self, c: Command) -> None:
        args = self.scope.values(c.args)
        if not args:
            return
        name, values = args[0], args[1:]
        for stop in ("CACHE", "PARENT_SCOPE"):
            if stop in values:
                values = values[:values.index(stop)]
        if values:
            self.scope.variables[name] = ";".join(values)
        else:
            self.scope.variables.pop(name, None)

    def _list(self, c: Command) -> None:
        args = self.scope.values(c.args)
        if len(args) >= 2 and args[0] in ("APPEND", "PREPEND"):
            old = split_list(self.scope.variables.get(args[1], ""))
            new = old + args[2:] if args[0] == "APPEND" else args[2:] + old
            self.scope.variables[args[1]] = ";".join(new)

    def _if(self, commands: list[Command], i: int) -> int:
        branches, depth, j = [(i, commands[i])], 0, i + 1
        while j < len(commands):
            name = commands[j].name
            if name == "if":
                depth += 1
            elif name == "endif":
                if depth == 0:
                    break
                depth -= 1
            elif name in ("elseif", "else") and depth == 0:
                branches.append((j, commands[j]))
            j += 1
        else:
            raise CMakeError(f"line {commands[i].line}: if() without endif()")
        bounds = [b[0] for b in branches] + [j]
        for k, (start, cond) in enumerate(branches):
            if cond.name == "else" or self.condition(cond.args):
                self.run(commands[start + 1:bounds[k + 1]])
                break
        return j + 1

    def _foreach(self, commands: list[Command], i: int) -> int:
        end = _block_end(commands, i, "foreach", "endforeach")
        args = self.scope.values(commands[i].args)
        if not args:
            return end + 1
        var, items = args[0], args[1:]
        if items[:1] == ["IN"]:
            items, mode = items[1:], None
            values = []
            for item in items:
                if item in ("LISTS", "ITEMS"):
                    mode = item
                elif mode == "LISTS":
                    values.extend(split_list(self.scope.variables.get(item, "")))
                else:
                    values.append(item)
            items = values
        elif items[:1] == ["RANGE"]:
            nums = [int(x) for x in items[1:]]
            lo, hi, step = (0, nums[0], 1) if len(nums) == 1 else (nums[0], nums[1], nums[2] if len(nums) > 2 else 1)
            items = [str(v) for v in range(lo, hi + 1, step)]
        body = commands[i + 1:end]
        for item in items:
            self.scope.variables[var] = item
            self.run(body)
        return end + 1

    # -- if() conditions, with CMake's precedence: parentheses, unary tests, binary tests, NOT, AND, OR
    def condition(self, args: list[Arg]) -> bool:
        tokens = [Arg(self.scope.expand(a.text), a.quoted) if "${" in a.text else a for a in args]
        value, rest = self._or(tokens)
        if rest:
            raise CMakeError(f"cannot read the condition at {' '.join(t.text for t in rest)!r}")
        return value

    def _or(self, t):
        value, t = self._and(t)
        while t and not t[0].quoted and t[0].text == "OR":
            rhs, t = self._and(t[1:])
            value = value or rhs
        return value, t

    def _and(self, t):
        value, t = self._not(t)
        while t and not t[0].quoted and t[0].text == "AND":
            rhs, t = self._not(t[1:])
            value = value and rhs
        return value, t

    def _not(self, t):
        if t and not t[0].quoted and t[0].text == "NOT":
            value, t = self._not(t[1:])
            return not value, t
        return self._binary(t)

    _BINARY = ("STREQUAL", "EQUAL", "LESS", "GREATER", "MATCHES", "IN_LIST", "VERSION_EQUAL", "STRLESS",
               "STRGREATER", "LESS_EQUAL", "GREATER_EQUAL")

    def _binary(self, t):
        if len(t) >= 3 and not t[1].quoted and t[1].text in self._BINARY:
            lhs, op, rhs = self._operand(t[0]), t[1].text, t[2]
            rest = t[3:]
            if op == "IN_LIST":
                return lhs in split_list(self.scope.variables.get(rhs.text, "")), rest
            right = self._operand(rhs)
            if op == "STREQUAL":
                return lhs == right, rest
            if op == "MATCHES":
                return re.search(right, lhs) is not None, rest
            try:
                a, b = float(lhs), float(right)
            except ValueError:
                a, b = lhs, right
            return {"EQUAL": a == b, "VERSION_EQUAL": a == b, "LESS": a < b, "GREATER": a > b,
                    "STRLESS": lhs < right, "STRGREATER": lhs > right, "LESS_EQUAL": a <= b,
                    "GREATER_EQUAL": a >= b}[op], rest
        return self._unary(t)

    def _unary(self, t):
        if not t:
            raise CMakeError("a condition ends too early")
        head = t[0]
        if not head.quoted and head.text in ("DEFINED", "EXISTS", "TARGET", "IS_DIRECTORY", "COMMAND") and len(t) > 1:
            arg = t[1].text
            value = {"DEFINED": arg in self.scope.variables, "EXISTS": Path(arg).exists() if arg else False,
                     "IS_DIRECTORY": Path(arg).is_dir() if arg else False, "TARGET": arg in self.scope.targets,
                     "COMMAND": False}[head.text]
            return value, t[2:]
        if not head.quoted and head.text == "(":
            value, rest = self._or(t[1:])
            if not rest or rest[0].text != ")":
                raise CMakeError("unbalanced parentheses in a condition")
            return value, rest[1:]
        if head.quoted:
            return is_true(head.text), t[1:]
        if head.text in self.scope.variables:  # a bare word names a variable when one is defined
            return is_true(self.scope.variables[head.text]), t[1:]
        # an undefined name is false; a constant is true only as one of CMake's true constants
        return head.text.lower() in ("1", "on", "yes", "true", "y") or _is_nonzero_number(head.text), t[1:]

    def _operand(self, a: Arg) -> str:
        if not a.quoted and a.text in self.scope.variables:
            return self.scope.variables[a.text]
        return a.text


def _is_nonzero_number(text: str) -> bool:
    try:
        return float(text) != 0
    except ValueError:
        return False


def _block_end(commands: list[Command], i: int, opening: str, closing: str) -> int:
    depth = 0
    for j in range(i + 1, len(commands)):
        if commands[j].name == opening:
            depth += 1
        elif commands[j].name == closing:
            if depth == 0:
                return j
            depth -= 1
    raise CMakeError(f"line {commands[i].line}: {opening}() without {closing}()")
