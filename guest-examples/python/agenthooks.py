"""agenthooks: write an agenthooks hook in Python, with the Rust SDK's vocabulary.

A hook is a plain function ``hook(event: Event) -> Answer``; raising
``HookError`` (or any exception) fails the hook with its message, which the
host reports in one line and counts as allow (or deny under ``onError: deny``).

- ``Event``: ``name``, ``harness``, ``tool_name``, ``tool_kind``, ``session_id``,
  ``cwd``, ``input`` (the whole Claude Code hook input as a dict), and the
  accessors ``shell_command()``, ``file_path()``, ``tool_input()``, ``prompt()``,
  ``str_field(key)``.
- ``Answer``: ``Answer.none()``, ``.allow()``, ``.deny(reason)``, ``.ask(reason)``,
  ``.defer()``, ``.context(text)``, ``.block(reason)``, ``.stop(reason)``, and the
  builders ``with_block``, ``with_stop``, ``with_permission``, ``with_reason``,
  ``with_context``, ``with_updated_input``, ``with_system_message``, ``with_extra``.
- ``commands(line)``: the simple commands a shell line would run (``shlex``
  does not follow ``sh -c``, ``$(...)``, pipes or redirections).
- ``component(hook)``: the ``WitWorld`` class componentize-py exports.

This file is the same everywhere agenthooks ships it (``agenthooks new --lang
python`` writes it; the binary embeds it), and is checked against the
``agenthooks:hook`` WIT by the componentize-py bindings it converts to.
Tested with componentize-py 0.25.1.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, Dict, List, Optional

__all__ = [
    "Answer",
    "Event",
    "HookError",
    "Permission",
    "SimpleCommand",
    "ToolKind",
    "commands",
    "component",
    "log",
    "run_native",
]

#: The componentize-py release this file was tested with.
COMPONENTIZE_PY = "0.25.1"


class HookError(Exception):
    """A failure of the hook, reported by the host in one line."""


class ToolKind:
    """What a tool does (the WIT's ``tool-kind``), by its wire name."""

    SHELL = "shell"
    READ = "read"
    WRITE = "write"
    MCP = "mcp"
    OTHER = "other"
    ALL = (SHELL, READ, WRITE, MCP, OTHER)

    @staticmethod
    def of(tool_name: str) -> str:
        """The kind of a tool by its canonical (Claude Code) name."""
        if tool_name in ("Bash", "PowerShell"):
            return ToolKind.SHELL
        if tool_name in ("Read", "Glob", "Grep", "LS"):
            return ToolKind.READ
        if tool_name in ("Write", "Edit", "MultiEdit", "NotebookEdit"):
            return ToolKind.WRITE
        if tool_name.startswith("mcp__"):
            return ToolKind.MCP
        return ToolKind.OTHER


class Permission:
    """A permission decision before a tool (the WIT's ``permission``)."""

    ALLOW = "allow"
    ASK = "ask"
    DEFER = "defer"
    DENY = "deny"
    ALL = (ALLOW, ASK, DEFER, DENY)


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


class Event:
    """One event in Claude Code's shape."""

    def __init__(
        self,
        name: str,
        harness: str,
        tool_name: Optional[str],
        tool_kind: Optional[str],
        session_id: Optional[str],
        cwd: Optional[str],
        input: Dict[str, Any],
    ) -> None:
        self.name = name
        self.harness = harness
        self.tool_name = tool_name
        self.tool_kind = tool_kind
        self.session_id = session_id
        self.cwd = cwd
        self.input = input

    @classmethod
    def from_json(cls, data: Any) -> "Event":
        """An event from a Claude Code hook input (a dict, or its JSON text)."""
        if isinstance(data, (str, bytes)):
            data = json.loads(data)
        if not isinstance(data, dict):
            raise HookError("the hook input is not a JSON object")
        name = _text(data.get("hook_event_name"))
        if name is None:
            raise HookError("the hook input has no `hook_event_name`")
        tool_name = _text(data.get("tool_name"))
        kind = _text(data.get("tool_kind"))
        if kind not in ToolKind.ALL:
            kind = ToolKind.of(tool_name) if tool_name is not None else None
        return cls(
            name,
            _text(data.get("harness")) or "claude",
            tool_name,
            kind,
            _text(data.get("session_id")),
            _text(data.get("cwd")),
            data,
        )

    @classmethod
    def from_wit(cls, event: Any) -> "Event":
        """An event from the componentize-py binding's ``Event`` record."""
        data = json.loads(event.input)
        if not isinstance(data, dict):
            raise HookError("the hook input is not a JSON object")
        kind = event.tool_kind.name.lower() if event.tool_kind is not None else None
        return cls(
            event.name,
            event.harness,
            event.tool_name,
            kind,
            event.session_id,
            event.cwd,
            data,
        )

    def str_field(self, key: str) -> Optional[str]:
        """A top-level text field of the input."""
        return _text(self.input.get(key))

    def tool_input(self) -> Optional[Dict[str, Any]]:
        """``tool_input``, when it is an object."""
        value = self.input.get("tool_input")
        return value if isinstance(value, dict) else None

    def shell_command(self) -> Optional[str]:
        """The command of a shell tool (``Bash``, ``PowerShell``), else ``None``."""
        if self.tool_kind != ToolKind.SHELL:
            return None
        return _text((self.tool_input() or {}).get("command"))

    def file_path(self) -> Optional[str]:
        """The file a tool reads or writes: ``file_path``, ``path`` or ``notebook_path``."""
        tool_input = self.tool_input() or {}
        for key in ("file_path", "path", "notebook_path"):
            value = _text(tool_input.get(key))
            if value is not None:
                return value
        return None

    def prompt(self) -> Optional[str]:
        """The user's prompt, at ``UserPromptSubmit``."""
        return self.str_field("prompt")


class Answer:
    """A hook's answer; every field optional. ``Answer.none()`` has no opinion."""

    def __init__(self) -> None:
        self.permission: Optional[str] = None
        self.block = False
        self.reason: Optional[str] = None
        self.additional_context: Optional[str] = None
        self.updated_input: Optional[Dict[str, Any]] = None
        self.system_message: Optional[str] = None
        self.continue_: Optional[bool] = None
        self.stop_reason: Optional[str] = None
        self.extra: Dict[str, Any] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Answer) and vars(self) == vars(other)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if v not in (None, False, {}))
        return f"Answer({fields})"

    @classmethod
    def none(cls) -> "Answer":
        """No opinion: the agent goes on."""
        return cls()

    @classmethod
    def allow(cls) -> "Answer":
        """Before a tool: run it without asking."""
        return cls().with_permission(Permission.ALLOW)

    @classmethod
    def deny(cls, reason: str) -> "Answer":
        """Before a tool: do not run it; ``reason`` tells the model why."""
        return cls().with_permission(Permission.DENY).with_reason(reason)

    @classmethod
    def ask(cls, reason: str) -> "Answer":
        """Before a tool: ask the user first."""
        return cls().with_permission(Permission.ASK).with_reason(reason)

    @classmethod
    def defer(cls) -> "Answer":
        """Before a tool: leave the decision to the agent."""
        return cls().with_permission(Permission.DEFER)

    @classmethod
    def context(cls, text: str) -> "Answer":
        """Add ``text`` to the model's context."""
        return cls().with_context(text)

    @classmethod
    def block(cls, reason: str) -> "Answer":
        """Block the prompt or tool (at ``Stop``: keep going, with ``reason``)."""
        return cls().with_block(reason)

    @classmethod
    def stop(cls, reason: str) -> "Answer":
        """Stop the agent entirely; ``reason`` is shown to the user."""
        return cls().with_stop(reason)

    def with_block(self, reason: str) -> "Answer":
        self.block = True
        return self.with_reason(reason)

    def with_stop(self, reason: str) -> "Answer":
        self.continue_ = False
        self.stop_reason = reason
        return self

    def with_permission(self, permission: str) -> "Answer":
        if permission not in Permission.ALL:
            raise HookError(f"unknown permission `{permission}`")
        self.permission = permission
        return self

    def with_reason(self, reason: str) -> "Answer":
        self.reason = reason
        return self

    def with_context(self, text: str) -> "Answer":
        """Add context; a second call adds a line."""
        before = self.additional_context
        self.additional_context = text if before is None else f"{before}\n{text}"
        return self

    def with_updated_input(self, tool_input: Dict[str, Any]) -> "Answer":
        self.updated_input = tool_input
        return self

    def with_system_message(self, message: str) -> "Answer":
        self.system_message = message
        return self

    def with_extra(self, key: str, value: Any) -> "Answer":
        """Any other field of Claude Code's answer (merged over the typed ones)."""
        _merge(self.extra, {key: value})
        return self

    def is_none(self) -> bool:
        return self == Answer.none()

    def to_wit(self) -> Any:
        """The componentize-py binding's ``Answer`` record."""
        from wit_world.imports import types  # only inside the component

        dump = lambda v: None if v is None else json.dumps(v)  # noqa: E731
        return types.Answer(
            permission=None if self.permission is None else types.Permission[self.permission.upper()],
            block=self.block,
            reason=self.reason,
            additional_context=self.additional_context,
            updated_input=dump(self.updated_input),
            system_message=self.system_message,
            continue_=self.continue_,
            stop_reason=self.stop_reason,
            extra=dump(self.extra or None),
        )


def log(level: str, message: str) -> None:
    """One line to the hook's log (``debug``, ``info``, ``warn``, ``error``);
    on stderr when the hook runs natively."""
    try:
        from wit_world.imports import host
    except ImportError:
        print(f"{level}: {message}", file=sys.stderr)
        return
    host.log(host.Level[level.upper()], message)


# --- the shell-command splitter: the Rust SDK's `shell` module, line for line ---

_MAX_DEPTH = 8
_WRAPPERS = {
    "sudo", "doas", "env", "nohup", "time", "command", "exec", "nice", "ionice", "xargs",
    "stdbuf", "timeout", "builtin", "then", "do", "else", "elif", "if", "while", "until",
    "!", "{", "}",
}
_VALUED_OPTIONS = {
    "-u", "-g", "-C", "-p", "-h", "-U", "-r", "-t", "-n", "-c", "-D", "-R", "-L", "-P",
    "-I", "-d", "-a",
}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "busybox"}


def _basename(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and bool(name) and all(c.isascii() and (c.isalnum() or c == "_") for c in name) \
        and not name[0].isdigit()


class SimpleCommand:
    """One simple command: its words, unquoted, with redirections set aside."""

    def __init__(self) -> None:
        #: The words, unquoted, including assignments and wrappers (``sudo``).
        self.words: List[str] = []
        #: The targets of its redirections (``> out.txt`` gives ``out.txt``).
        self.redirects: List[str] = []
        #: Whether its stdin is the previous command's stdout.
        self.piped = False

    def __repr__(self) -> str:
        return f"SimpleCommand({self.words!r}, redirects={self.redirects!r}, piped={self.piped})"

    def _program_index(self) -> Optional[int]:
        i = 0
        wrapper: Optional[str] = None
        while i < len(self.words):
            word = self.words[i]
            base = _basename(word)
            if _is_assignment(word):
                i += 1
            elif base in _WRAPPERS:
                wrapper = base
                i += 1
            elif wrapper is not None and word.startswith("-"):
                takes_value = word in _VALUED_OPTIONS and wrapper not in ("nohup", "command", "builtin", "!")
                i += 2 if takes_value else 1
            elif wrapper == "timeout" and word[:1].isdigit():
                i += 1
            else:
                return i
        return None

    def program(self) -> Optional[str]:
        """The program by its base name, past assignments and wrappers (``sudo -u root``)."""
        i = self._program_index()
        return None if i is None else _basename(self.words[i])

    def args(self) -> List[str]:
        """The words after the program."""
        i = self._program_index()
        return [] if i is None else self.words[i + 1:]

    def is_privileged(self) -> bool:
        """Whether a wrapper before the program is ``sudo`` or ``doas``."""
        end = self._program_index()
        end = len(self.words) if end is None else end
        return any(_basename(w) in ("sudo", "doas") for w in self.words[:end])


def commands(line: str) -> List[SimpleCommand]:
    """Every simple command ``line`` would run, in order, including those in
    ``$(...)``, backticks, ``<(...)``, ``sh -c`` and ``eval``. It is not a shell:
    nothing is expanded, and it never fails."""
    out: List[SimpleCommand] = []
    _parse(line, 0, out)
    return out


def _inner_script(command: SimpleCommand) -> Optional[str]:
    program = command.program()
    args = command.args()
    if program == "eval":
        return " ".join(args)
    if program not in _SHELLS:
        return None
    for at, a in enumerate(args):
        if a.startswith("-") and not a.startswith("--") and "c" in a:
            return args[at + 1] if at + 1 < len(args) else None
    return None


def _parse(line: str, depth: int, out: List[SimpleCommand]) -> None:
    if depth > _MAX_DEPTH:
        return
    nested: List[str] = []
    tokens = _lex(line, nested)
    current = SimpleCommand()
    pending_pipe = False

    def finish(current: SimpleCommand) -> None:
        if current.words or current.redirects:
            inner = _inner_script(current)
            out.append(current)
            if inner is not None:
                _parse(inner, depth + 1, out)

    for kind, value in tokens:
        if kind == "word":
            if not current.words and not current.redirects:
                current.piped = pending_pipe
            current.words.append(value)
        elif kind == "redirect":
            current.redirects.append(value)
        else:
            finish(current)
            current = SimpleCommand()
            pending_pipe = value
    finish(current)
    for script in nested:
        _parse(script, depth + 1, out)


def _lex(line: str, nested: List[str]) -> List[tuple]:
    chars = line
    n = len(chars)
    tokens: List[tuple] = []
    word: List[str] = []
    state = {"in_word": False, "redirect_next": False}

    def push_word() -> None:
        if state["in_word"]:
            text = "".join(word)
            word.clear()
            if state["redirect_next"]:
                state["redirect_next"] = False
                tokens.append(("redirect", text))
            else:
                tokens.append(("word", text))
            state["in_word"] = False

    def at(j: int) -> Optional[str]:
        return chars[j] if j < n else None

    i = 0
    while i < n:
        c = chars[i]
        if c in " \t":
            push_word()
            i += 1
        elif c == "\\" and at(i + 1) == "\n":
            i += 2
        elif c == "\\":
            if i + 1 < n:
                word.append(chars[i + 1])
            state["in_word"] = True
            i += 2
        elif c == "#" and not state["in_word"]:
            while i < n and chars[i] != "\n":
                i += 1
        elif c == "'":
            state["in_word"] = True
            i += 1
            while i < n and chars[i] != "'":
                word.append(chars[i])
                i += 1
            i += 1
        elif c == '"':
            state["in_word"] = True
            i += 1
            while i < n and chars[i] != '"':
                ch = chars[i]
                if ch == "\\" and at(i + 1) in ('"', "\\", "$", "`"):
                    word.append(chars[i + 1])
                    i += 2
                elif ch == "$" and at(i + 1) == "(":
                    body, end = _balanced(chars, i + 2)
                    word.append(chars[i:end])
                    nested.append(body)
                    i = end
                elif ch == "`":
                    body, end = _backticks(chars, i + 1)
                    word.append(chars[i:end])
                    nested.append(body)
                    i = end
                else:
                    word.append(ch)
                    i += 1
            i += 1
        elif (c == "$" or c in "<>") and at(i + 1) == "(":
            body, end = _balanced(chars, i + 2)
            word.append(chars[i:end])
            nested.append(body)
            state["in_word"] = True
            i = end
        elif c == "`":
            body, end = _backticks(chars, i + 1)
            word.append(chars[i:end])
            nested.append(body)
            state["in_word"] = True
            i = end
        elif c in "<>":
            text = "".join(word)
            if state["in_word"] and text and text.isascii() and text.isdigit():
                word.clear()
                state["in_word"] = False
            push_word()
            i += 1
            while i < n and chars[i] in "<>|":
                i += 1
            if at(i) == "&":
                i += 1
                while i < n and (chars[i].isascii() and chars[i].isdigit() or chars[i] == "-"):
                    i += 1
            else:
                state["redirect_next"] = True
        elif c == "&" and at(i + 1) == ">":
            push_word()
            i += 2
            if at(i) == ">":
                i += 1
            state["redirect_next"] = True
        elif c in ";&|\n()":
            push_word()
            pipe = c == "|" and at(i + 1) != "|"
            i += 1
            while i < n and chars[i] in "&|;":
                i += 1
            state["redirect_next"] = False
            tokens.append(("sep", pipe))
        else:
            word.append(c)
            state["in_word"] = True
            i += 1
    push_word()
    return tokens


def _balanced(chars: str, start: int) -> tuple:
    depth = 1
    i = start
    quote: Optional[str] = None
    n = len(chars)
    while i < n:
        c = chars[i]
        if quote is not None:
            if c == quote:
                quote = None
            elif quote == '"' and c == "\\":
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return chars[start:i], i + 1
        i += 1
    end = min(n, i)
    return chars[min(start, end):end], end


def _backticks(chars: str, start: int) -> tuple:
    i = start
    n = len(chars)
    while i < n and chars[i] != "`":
        i += 2 if chars[i] == "\\" else 1
    end = min(i, n)
    return chars[start:end], min(i + 1, n)


# --- running the hook ---


def component(hook: Callable[[Event], Answer]) -> Optional[type]:
    """The ``WitWorld`` class that componentize-py exports, calling ``hook``:
    ``WitWorld = agenthooks.component(hook)`` in the app module. ``None`` when
    the module runs natively (pytest, ``python3 hook.py``), where there are no
    bindings."""
    try:
        import wit_world
        from componentize_py_types import Err
    except ImportError:
        return None

    class WitWorld(wit_world.WitWorld):
        def handle(self, event: Any) -> Any:
            try:
                answer = hook(Event.from_wit(event))
            except Exception as e:  # every failure is the hook's one-line error
                raise Err(f"{type(e).__name__}: {e}" if not isinstance(e, HookError) else str(e))
            if answer is None:
                answer = Answer.none()
            return answer.to_wit()

    return WitWorld


def _merge(base: Dict[str, Any], over: Dict[str, Any]) -> None:
    """Merge ``over`` into ``base``: objects key by key (recursively), anything else replaced."""
    for key, value in over.items():
        if isinstance(base.get(key), dict) and isinstance(value, dict):
            _merge(base[key], value)
        else:
            base[key] = value


def to_claude_json(answer: Answer, event_name: str) -> Dict[str, Any]:
    """The answer as Claude Code's hook output (what a command hook prints),
    field for field as the Rust SDK (``agenthooks-answer``)."""
    out: Dict[str, Any] = {}
    specific: Dict[str, Any] = {}
    if answer.continue_ is not None:
        out["continue"] = answer.continue_
    if answer.stop_reason is not None:
        out["stopReason"] = answer.stop_reason
    if answer.system_message is not None:
        out["systemMessage"] = answer.system_message
    if answer.block:
        out["decision"] = "block"
    if answer.reason is not None and (answer.block or answer.permission is None):
        out["reason"] = answer.reason
    decision = None
    if answer.permission is not None and event_name == "PermissionRequest":
        # The permission prompt knows only allow and deny.
        if answer.permission in (Permission.ALLOW, Permission.DENY):
            decision = {"behavior": answer.permission}
            if answer.permission == Permission.DENY and answer.reason is not None:
                decision["message"] = answer.reason
            if answer.permission == Permission.ALLOW and answer.updated_input is not None:
                decision["updatedInput"] = answer.updated_input
    elif answer.permission is not None:
        specific["permissionDecision"] = answer.permission
        if answer.reason is not None:
            specific["permissionDecisionReason"] = answer.reason
    # At PermissionRequest a rewrite rides only on an allow (above).
    if answer.updated_input is not None and event_name != "PermissionRequest":
        specific["updatedInput"] = answer.updated_input
    if answer.additional_context is not None:
        specific["additionalContext"] = answer.additional_context
    if decision is not None:
        specific["decision"] = decision
    if specific:
        out["hookSpecificOutput"] = specific
    _merge(out, json.loads(json.dumps(answer.extra)))
    specific = out.get("hookSpecificOutput")
    if isinstance(specific, dict) and "hookEventName" not in specific:
        # Claude Code rejects a hookSpecificOutput that does not name its event.
        out["hookSpecificOutput"] = {"hookEventName": event_name, **specific}
    return out


def run_native(hook: Callable[[Event], Answer]) -> int:
    """Run ``hook`` as a Claude Code command hook: the input on stdin, the
    answer on stdout; a failure is a line on stderr and exit 1 (allows)."""
    try:
        event = Event.from_json(sys.stdin.read())
        answer = hook(event) or Answer.none()
    except Exception as e:
        print(f"hook failed: {e}", file=sys.stderr)
        return 1
    if not answer.is_none():
        print(json.dumps(to_claude_json(answer, event.name)))
    return 0
