// agenthooks: write an agenthooks hook in JavaScript, with the Rust SDK's vocabulary.
//
// A hook is a plain function `hook(event) -> Answer`; throwing fails the hook
// with the error's message, which the host reports in one line and counts as
// allow (or deny under `onError: "deny"`).
//
// - `Event`: `name`, `harness`, `toolName`, `toolKind`, `sessionId`, `cwd`,
//   `input` (the whole Claude Code hook input), and the accessors
//   `shellCommand()`, `filePath()`, `toolInput()`, `prompt()`, `strField(key)`.
// - `Answer`: `Answer.none()`, `.allow()`, `.deny(reason)`, `.ask(reason)`,
//   `.defer()`, `.context(text)`, `.block(reason)`, `.stop(reason)`, and the
//   builders `withBlock`, `withStop`, `withPermission`, `withReason`,
//   `withContext`, `withUpdatedInput`, `withSystemMessage`, `withExtra`.
// - `commands(line)`: the simple commands a shell line would run (JavaScript
//   has no shell splitter; this is the Rust SDK's `shell` module, line for line).
// - `exportHook(hook)`: the `handle` function the component exports, in the
//   shape jco / componentize-js bind the `agenthooks:hook` WIT to.
//
// This file is the same everywhere agenthooks ships it (`agenthooks new --lang
// js` writes it; the binary embeds it). Tested with
// @bytecodealliance/componentize-js 0.23.0 (through jco).

/** The componentize-js release this file was tested with. */
export const COMPONENTIZE_JS = "0.23.0";

/** What a tool does (the WIT's `tool-kind`), by its wire name. */
export const ToolKind = Object.freeze({
  SHELL: "shell",
  READ: "read",
  WRITE: "write",
  MCP: "mcp",
  OTHER: "other",
  /** The kind of a tool by its canonical (Claude Code) name. */
  of(toolName) {
    if (toolName === "Bash" || toolName === "PowerShell") return "shell";
    if (["Read", "Glob", "Grep", "LS"].includes(toolName)) return "read";
    if (["Write", "Edit", "MultiEdit", "NotebookEdit"].includes(toolName)) return "write";
    if (toolName.startsWith("mcp__")) return "mcp";
    return "other";
  },
});

const KINDS = ["shell", "read", "write", "mcp", "other"];

/** A permission decision before a tool (the WIT's `permission`). */
export const Permission = Object.freeze({ ALLOW: "allow", ASK: "ask", DEFER: "defer", DENY: "deny" });

const PERMISSIONS = ["allow", "ask", "defer", "deny"];

const text = (v) => (typeof v === "string" ? v : undefined);

/** One event in Claude Code's shape. */
export class Event {
  constructor({ name, harness, toolName, toolKind, sessionId, cwd, input }) {
    this.name = name;
    this.harness = harness;
    this.toolName = toolName;
    this.toolKind = toolKind;
    this.sessionId = sessionId;
    this.cwd = cwd;
    this.input = input;
  }

  /** An event from a Claude Code hook input (an object, or its JSON text). */
  static fromJson(data) {
    if (typeof data === "string") data = JSON.parse(data);
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      throw new Error("the hook input is not a JSON object");
    }
    const name = text(data.hook_event_name);
    if (name === undefined) throw new Error("the hook input has no `hook_event_name`");
    const toolName = text(data.tool_name);
    let toolKind = text(data.tool_kind);
    if (!KINDS.includes(toolKind)) toolKind = toolName === undefined ? undefined : ToolKind.of(toolName);
    return new Event({
      name,
      harness: text(data.harness) ?? "claude",
      toolName,
      toolKind,
      sessionId: text(data.session_id),
      cwd: text(data.cwd),
      input: data,
    });
  }

  /** An event from the record the component's `handle` receives. */
  static fromWit(event) {
    const input = JSON.parse(event.input);
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      throw new Error("the hook input is not a JSON object");
    }
    return new Event({
      name: event.name,
      harness: event.harness,
      toolName: event.toolName ?? undefined,
      toolKind: event.toolKind ?? undefined,
      sessionId: event.sessionId ?? undefined,
      cwd: event.cwd ?? undefined,
      input,
    });
  }

  /** A top-level text field of the input. */
  strField(key) {
    return text(this.input[key]);
  }

  /** `tool_input`, when it is an object. */
  toolInput() {
    const v = this.input.tool_input;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  }

  /** The command of a shell tool (`Bash`, `PowerShell`), else `undefined`. */
  shellCommand() {
    if (this.toolKind !== "shell") return undefined;
    return text(this.toolInput()?.command);
  }

  /** The file a tool reads or writes: `file_path`, `path` or `notebook_path`. */
  filePath() {
    const input = this.toolInput() ?? {};
    for (const key of ["file_path", "path", "notebook_path"]) {
      if (typeof input[key] === "string") return input[key];
    }
    return undefined;
  }

  /** The user's prompt, at `UserPromptSubmit`. */
  prompt() {
    return this.strField("prompt");
  }
}

/** A hook's answer; every field optional. `Answer.none()` has no opinion. */
export class Answer {
  constructor() {
    this.permission = undefined;
    this.block = false;
    this.reason = undefined;
    this.additionalContext = undefined;
    this.updatedInput = undefined;
    this.systemMessage = undefined;
    this.continue = undefined;
    this.stopReason = undefined;
    this.extra = {};
  }

  /** No opinion: the agent goes on. */
  static none() {
    return new Answer();
  }
  /** Before a tool: run it without asking. */
  static allow() {
    return new Answer().withPermission("allow");
  }
  /** Before a tool: do not run it; `reason` tells the model why. */
  static deny(reason) {
    return new Answer().withPermission("deny").withReason(reason);
  }
  /** Before a tool: ask the user first. */
  static ask(reason) {
    return new Answer().withPermission("ask").withReason(reason);
  }
  /** Before a tool: leave the decision to the agent. */
  static defer() {
    return new Answer().withPermission("defer");
  }
  /** Add `text` to the model's context. */
  static context(text) {
    return new Answer().withContext(text);
  }
  /** Block the prompt or tool (at `Stop`: keep going, with `reason`). */
  static block(reason) {
    return new Answer().withBlock(reason);
  }
  /** Stop the agent entirely; `reason` is shown to the user. */
  static stop(reason) {
    return new Answer().withStop(reason);
  }

  withBlock(reason) {
    this.block = true;
    return this.withReason(reason);
  }
  withStop(reason) {
    this.continue = false;
    this.stopReason = reason;
    return this;
  }
  withPermission(permission) {
    if (!PERMISSIONS.includes(permission)) throw new Error(`unknown permission \`${permission}\``);
    this.permission = permission;
    return this;
  }
  withReason(reason) {
    this.reason = reason;
    return this;
  }
  /** Add context; a second call adds a line. */
  withContext(text) {
    this.additionalContext = this.additionalContext === undefined ? text : `${this.additionalContext}\n${text}`;
    return this;
  }
  withUpdatedInput(toolInput) {
    this.updatedInput = toolInput;
    return this;
  }
  withSystemMessage(message) {
    this.systemMessage = message;
    return this;
  }
  /** Any other field of Claude Code's answer (merged over the typed ones). */
  withExtra(key, value) {
    merge(this.extra, { [key]: value });
    return this;
  }

  isNone() {
    return (
      this.permission === undefined &&
      !this.block &&
      this.reason === undefined &&
      this.additionalContext === undefined &&
      this.updatedInput === undefined &&
      this.systemMessage === undefined &&
      this.continue === undefined &&
      this.stopReason === undefined &&
      Object.keys(this.extra).length === 0
    );
  }

  /** The record the component's `handle` returns (the WIT's `answer`). */
  toWit() {
    return {
      permission: this.permission,
      block: this.block,
      reason: this.reason,
      additionalContext: this.additionalContext,
      updatedInput: this.updatedInput === undefined ? undefined : JSON.stringify(this.updatedInput),
      systemMessage: this.systemMessage,
      continue: this.continue,
      stopReason: this.stopReason,
      extra: Object.keys(this.extra).length === 0 ? undefined : JSON.stringify(this.extra),
    };
  }

  /**
   * The answer as Claude Code's hook output (what a command hook prints),
   * field for field as the Rust SDK (`agenthooks-answer`).
   */
  toClaudeJson(eventName) {
    const out = {};
    const specific = {};
    if (this.continue !== undefined) out.continue = this.continue;
    if (this.stopReason !== undefined) out.stopReason = this.stopReason;
    if (this.systemMessage !== undefined) out.systemMessage = this.systemMessage;
    if (this.block) out.decision = "block";
    if (this.reason !== undefined && (this.block || this.permission === undefined)) out.reason = this.reason;
    let decision;
    if (this.permission !== undefined && eventName === "PermissionRequest") {
      // The permission prompt knows only allow and deny.
      if (this.permission === "allow" || this.permission === "deny") {
        decision = { behavior: this.permission };
        if (this.permission === "deny" && this.reason !== undefined) decision.message = this.reason;
        if (this.permission === "allow" && this.updatedInput !== undefined) decision.updatedInput = this.updatedInput;
      }
    } else if (this.permission !== undefined) {
      specific.permissionDecision = this.permission;
      if (this.reason !== undefined) specific.permissionDecisionReason = this.reason;
    }
    // At PermissionRequest a rewrite rides only on an allow (above).
    if (this.updatedInput !== undefined && eventName !== "PermissionRequest") specific.updatedInput = this.updatedInput;
    if (this.additionalContext !== undefined) specific.additionalContext = this.additionalContext;
    if (decision !== undefined) specific.decision = decision;
    if (Object.keys(specific).length > 0) out.hookSpecificOutput = specific;
    merge(out, structuredClone(this.extra));
    const s = out.hookSpecificOutput;
    if (isObject(s) && !("hookEventName" in s)) {
      // Claude Code rejects a hookSpecificOutput that does not name its event.
      out.hookSpecificOutput = { hookEventName: eventName, ...s };
    }
    return out;
  }
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** Merge `over` into `base`: objects key by key (recursively), anything else replaced. */
function merge(base, over) {
  for (const [key, value] of Object.entries(over)) {
    if (isObject(base[key]) && isObject(value)) merge(base[key], value);
    else base[key] = value;
  }
}

// --- the shell-command splitter: the Rust SDK's `shell` module, line for line ---

const MAX_DEPTH = 8;
const WRAPPERS = new Set([
  "sudo", "doas", "env", "nohup", "time", "command", "exec", "nice", "ionice", "xargs",
  "stdbuf", "timeout", "builtin", "then", "do", "else", "elif", "if", "while", "until",
  "!", "{", "}",
]);
const VALUED_OPTIONS = new Set([
  "-u", "-g", "-C", "-p", "-h", "-U", "-r", "-t", "-n", "-c", "-D", "-R", "-L", "-P",
  "-I", "-d", "-a",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "busybox"]);

const basename = (word) => word.slice(word.lastIndexOf("/") + 1);
const isDigit = (c) => c !== undefined && c >= "0" && c <= "9";

function isAssignment(word) {
  const eq = word.indexOf("=");
  if (eq <= 0) return false;
  const name = word.slice(0, eq);
  return /^[A-Za-z0-9_]+$/.test(name) && !isDigit(name[0]);
}

/** One simple command: its words, unquoted, with redirections set aside. */
export class SimpleCommand {
  constructor() {
    /** The words, unquoted, including assignments and wrappers (`sudo`). */
    this.words = [];
    /** The targets of its redirections (`> out.txt` gives `out.txt`). */
    this.redirects = [];
    /** Whether its stdin is the previous command's stdout. */
    this.piped = false;
  }

  programIndex() {
    let i = 0;
    let wrapper;
    while (i < this.words.length) {
      const word = this.words[i];
      const base = basename(word);
      if (isAssignment(word)) {
        i += 1;
      } else if (WRAPPERS.has(base)) {
        wrapper = base;
        i += 1;
      } else if (wrapper !== undefined && word.startsWith("-")) {
        const takesValue = VALUED_OPTIONS.has(word) && !["nohup", "command", "builtin", "!"].includes(wrapper);
        i += takesValue ? 2 : 1;
      } else if (wrapper === "timeout" && isDigit(word[0])) {
        i += 1;
      } else {
        return i;
      }
    }
    return undefined;
  }

  /** The program by its base name, past assignments and wrappers (`sudo -u root`). */
  program() {
    const i = this.programIndex();
    return i === undefined ? undefined : basename(this.words[i]);
  }

  /** The words after the program. */
  args() {
    const i = this.programIndex();
    return i === undefined ? [] : this.words.slice(i + 1);
  }

  /** Whether a wrapper before the program is `sudo` or `doas`. */
  isPrivileged() {
    const end = this.programIndex() ?? this.words.length;
    return this.words.slice(0, end).some((w) => ["sudo", "doas"].includes(basename(w)));
  }
}

/**
 * Every simple command `line` would run, in order, including those in
 * `$(...)`, backticks, `<(...)`, `sh -c` and `eval`. It is not a shell:
 * nothing is expanded, and it never fails.
 */
export function commands(line) {
  const out = [];
  parse(line, 0, out);
  return out;
}

function innerScript(command) {
  const program = command.program();
  const args = command.args();
  if (program === "eval") return args.join(" ");
  if (!SHELLS.has(program)) return undefined;
  const at = args.findIndex((a) => a.startsWith("-") && !a.startsWith("--") && a.includes("c"));
  return at < 0 ? undefined : args[at + 1];
}

function parse(line, depth, out) {
  if (depth > MAX_DEPTH) return;
  const nested = [];
  const tokens = lex(line, nested);
  let current = new SimpleCommand();
  let pendingPipe = false;
  const finish = (c) => {
    if (c.words.length > 0 || c.redirects.length > 0) {
      const inner = innerScript(c);
      out.push(c);
      if (inner !== undefined) parse(inner, depth + 1, out);
    }
  };
  for (const [kind, value] of tokens) {
    if (kind === "word") {
      if (current.words.length === 0 && current.redirects.length === 0) current.piped = pendingPipe;
      current.words.push(value);
    } else if (kind === "redirect") {
      current.redirects.push(value);
    } else {
      finish(current);
      current = new SimpleCommand();
      pendingPipe = value;
    }
  }
  finish(current);
  for (const script of nested) parse(script, depth + 1, out);
}

function lex(line, nested) {
  // By code point, as the Rust splitter goes by char.
  const chars = Array.from(line);
  const n = chars.length;
  const tokens = [];
  let word = "";
  let inWord = false;
  let redirectNext = false;
  const pushWord = () => {
    if (inWord) {
      tokens.push([redirectNext ? "redirect" : "word", word]);
      redirectNext = false;
      word = "";
      inWord = false;
    }
  };
  const slice = (a, b) => chars.slice(a, b).join("");
  let i = 0;
  while (i < n) {
    const c = chars[i];
    if (c === " " || c === "\t") {
      pushWord();
      i += 1;
    } else if (c === "\\" && chars[i + 1] === "\n") {
      i += 2;
    } else if (c === "\\") {
      if (i + 1 < n) word += chars[i + 1];
      inWord = true;
      i += 2;
    } else if (c === "#" && !inWord) {
      while (i < n && chars[i] !== "\n") i += 1;
    } else if (c === "'") {
      inWord = true;
      i += 1;
      while (i < n && chars[i] !== "'") word += chars[i++];
      i += 1;
    } else if (c === '"') {
      inWord = true;
      i += 1;
      while (i < n && chars[i] !== '"') {
        const ch = chars[i];
        if (ch === "\\" && ['"', "\\", "$", "`"].includes(chars[i + 1])) {
          word += chars[i + 1];
          i += 2;
        } else if (ch === "$" && chars[i + 1] === "(") {
          const [body, end] = balanced(chars, i + 2);
          word += slice(i, end);
          nested.push(body);
          i = end;
        } else if (ch === "`") {
          const [body, end] = backticks(chars, i + 1);
          word += slice(i, end);
          nested.push(body);
          i = end;
        } else {
          word += ch;
          i += 1;
        }
      }
      i += 1;
    } else if ((c === "$" || c === "<" || c === ">") && chars[i + 1] === "(") {
      const [body, end] = balanced(chars, i + 2);
      word += slice(i, end);
      nested.push(body);
      inWord = true;
      i = end;
    } else if (c === "`") {
      const [body, end] = backticks(chars, i + 1);
      word += slice(i, end);
      nested.push(body);
      inWord = true;
      i = end;
    } else if (c === "<" || c === ">") {
      if (inWord && /^[0-9]+$/.test(word)) {
        word = "";
        inWord = false;
      }
      pushWord();
      i += 1;
      while (i < n && "<>|".includes(chars[i])) i += 1;
      if (chars[i] === "&") {
        i += 1;
        while (i < n && (isDigit(chars[i]) || chars[i] === "-")) i += 1;
      } else {
        redirectNext = true;
      }
    } else if (c === "&" && chars[i + 1] === ">") {
      pushWord();
      i += 2;
      if (chars[i] === ">") i += 1;
      redirectNext = true;
    } else if (";&|\n()".includes(c)) {
      pushWord();
      const pipe = c === "|" && chars[i + 1] !== "|";
      i += 1;
      while (i < n && "&|;".includes(chars[i])) i += 1;
      redirectNext = false;
      tokens.push(["sep", pipe]);
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  pushWord();
  return tokens;
}

function balanced(chars, start) {
  let depth = 1;
  let i = start;
  let quote;
  const n = chars.length;
  while (i < n) {
    const c = chars[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === "\\") i += 1;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "\\") {
      i += 1;
    } else if (c === "(") {
      depth += 1;
    } else if (c === ")") {
      depth -= 1;
      if (depth === 0) return [chars.slice(start, i).join(""), i + 1];
    }
    i += 1;
  }
  const end = Math.min(n, i);
  return [chars.slice(Math.min(start, end), end).join(""), end];
}

function backticks(chars, start) {
  let i = start;
  const n = chars.length;
  while (i < n && chars[i] !== "`") i += chars[i] === "\\" ? 2 : 1;
  const end = Math.min(i, n);
  return [chars.slice(start, end).join(""), Math.min(i + 1, n)];
}

// --- running the hook ---

/**
 * The `handle` function the component exports, calling `hook`:
 * `export const handle = exportHook(hook);` in the component's entry module.
 * A thrown error becomes the `err` of `handle`'s result.
 */
export function exportHook(hook) {
  return (event) => {
    let answer;
    try {
      answer = hook(Event.fromWit(event)) ?? Answer.none();
    } catch (e) {
      // componentize-js turns a thrown value into `err`, with its text as payload.
      throw String(e instanceof Error ? e.message : e);
    }
    return answer.toWit();
  };
}

/**
 * Run `hook` natively as a Claude Code command hook (`node hook.js` with the
 * input on stdin): the answer on stdout; a failure is a line on stderr and
 * exit 1 (which allows).
 */
export async function runNative(hook) {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  try {
    const event = Event.fromJson(input);
    const answer = hook(event) ?? Answer.none();
    if (!answer.isNone()) process.stdout.write(`${JSON.stringify(answer.toClaudeJson(event.name))}\n`);
  } catch (e) {
    process.stderr.write(`hook failed: ${e instanceof Error ? e.message : e}\n`);
    process.exitCode = 1;
  }
}
