# The agent CLIs under test, pinned: the versions real-agents.md (and
# real-agents-2026.md for opencode, kilo, pi, droid, auggie) verified.
# Override one with e.g. CLAUDE_VERSION=2.1.197.
# sema (sema-core 2, an engine library) comes from PyPI, the rest from npm.
ALL_AGENTS=(claude codex gemini copilot qwen opencode kilo pi sema factory auggie)
pkg_of() {
  case "$1" in
    claude) echo "@anthropic-ai/claude-code" ;;
    codex) echo "@openai/codex" ;;
    gemini) echo "@google/gemini-cli" ;;
    copilot) echo "@github/copilot" ;;
    qwen) echo "@qwen-code/qwen-code" ;;
    opencode) echo "opencode-ai" ;;
    # 7.8.x's postinstall wants a platform package the registry lacks; 7.7.7 has both.
    kilo) echo "@kilocode/cli" ;;
    pi) echo "@mariozechner/pi-coding-agent" ;;
    sema) echo "sema-core" ;;
    # Factory Droid: the native binary package itself. `@factory/cli` 0.225.1's
    # launcher wants `@factory/cli-linux-x64@0.225.1`, which the registry lacks.
    factory) echo "@factory/cli-linux-x64" ;;
    auggie) echo "@augmentcode/auggie" ;;
    *) echo "unknown agent: $1" >&2; return 1 ;;
  esac
}
ver_of() {
  case "$1" in
    claude) echo "${CLAUDE_VERSION:-2.1.332}" ;;
    codex) echo "${CODEX_VERSION:-0.171.0}" ;;
    gemini) echo "${GEMINI_VERSION:-0.61.0}" ;;
    copilot) echo "${COPILOT_VERSION:-1.0.102}" ;;
    qwen) echo "${QWEN_VERSION:-0.24.4}" ;;
    opencode) echo "${OPENCODE_VERSION:-1.18.33}" ;;
    kilo) echo "${KILO_VERSION:-7.7.7}" ;;
    pi) echo "${PI_VERSION:-0.73.1}" ;;
    sema) echo "${SEMA_VERSION:-2.1.5}" ;;
    factory) echo "${FACTORY_VERSION:-0.225.2}" ;;
    auggie) echo "${AUGGIE_VERSION:-0.36.0}" ;;
    *) echo "unknown agent: $1" >&2; return 1 ;;
  esac
}
