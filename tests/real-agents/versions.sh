# The agent CLIs under test, pinned: the versions real-agents.md verified.
# Override one with e.g. CLAUDE_VERSION=2.1.197.
ALL_AGENTS=(claude codex gemini copilot qwen)
pkg_of() {
  case "$1" in
    claude) echo "@anthropic-ai/claude-code" ;;
    codex) echo "@openai/codex" ;;
    gemini) echo "@google/gemini-cli" ;;
    copilot) echo "@github/copilot" ;;
    qwen) echo "@qwen-code/qwen-code" ;;
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
    *) echo "unknown agent: $1" >&2; return 1 ;;
  esac
}
