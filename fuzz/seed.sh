#!/usr/bin/env bash
# Builds the fuzz corpora and the dictionary from what the repository holds:
# the recorded agent payloads (tests/fixtures/agents/, and
# /work/shared/fixtures/agents/ where it exists), the repository's own
# hooks.json files, the small seeds in fuzz/seeds/, and the string literals
# of the agent tables and the hooks.json format (the dictionary).
#
#   fuzz/seed.sh [OUT]     OUT defaults to fuzz/corpus (what `cargo fuzz run` reads)
#
# Writes OUT/<target>/ and OUT/agents.dict; idempotent; needs only bash.
set -euo pipefail
fuzz="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$fuzz")"
out="${1:-$fuzz/corpus}"
mkdir -p "$out"/{decode,encode,hooks_json,hook_output,install_merge,shell_split}

# The agent byte of the decode target picks AGENTS[byte % len], in the order
# of `AGENTS` in runtime/src/agents/mod.rs.
agents=(claude codex gemini copilot qwen cursor windsurf cline factory kiro opencode)
index_of() {
    local i
    for i in "${!agents[@]}"; do
        [[ ${agents[$i]} == "$1" ]] && { echo "$i"; return; }
    done
    echo -1
}
# seed FILE BYTE TEXT...: FILE gets the byte (0-255), then the rest verbatim.
seed() {
    local file=$1 byte=$2
    shift 2
    { printf "\\$(printf '%03o' "$byte")"; cat; } >"$file"
}

# decode: `[agent byte][event]\n[payload]`, each recorded payload twice:
# with its event as `--event` (Copilot's payloads do not name it) and without.
for dir in "$repo/tests/fixtures/agents" /work/shared/fixtures/agents; do
    [[ -d $dir ]] || continue
    for f in "$dir"/*/*/*.json; do
        rel=${f#"$dir"/}
        agent=${rel%%-*}
        i=$(index_of "$agent")
        ((i >= 0)) || continue
        base=$(basename "$f" .json)
        event=${base#*-}
        name=$(printf '%s' "$rel" | tr '/' '_')
        { printf '%s\n' "$event"; cat "$f"; } | seed "$out/decode/$name" "$i"
        { printf '\n'; cat "$f"; } | seed "$out/decode/noevent_$name" "$i"
    done
done
# Seeds for the agents without recordings: `<agent>[.<Event>|.<what>].json`.
for f in "$fuzz"/seeds/decode/*.json; do
    base=$(basename "$f" .json)
    i=$(index_of "${base%%.*}")
    ((i >= 0)) || continue
    event=""
    [[ $base == *.* && ${base#*.} == [A-Z]* ]] && event=${base#*.}
    { printf '%s\n' "$event"; cat "$f"; } | seed "$out/decode/seed_$base" "$i"
done

# hooks_json: every hooks.json and Claude settings file the repository holds.
while IFS= read -r f; do
    cp "$f" "$out/hooks_json/$(printf '%s' "${f#"$repo"/}" | tr '/' '_')"
done < <(find "$repo/.agents" "$repo/tests" "$repo/guest-examples" "$fuzz/seeds/hooks_json" \
    -name '*.json' \( -name 'hooks*.json' -o -path '*hooks_json*' -o -name 'settings.json' \) \
    -not -path '*/fixtures/agents/*' -not -path '*/target/*' 2>/dev/null)

# hook_output: `[event byte][exit byte][stdout]\0[stderr]` (exit as i8; 0x7f a signal).
# Event bytes index EventName::ALL (0 PreToolUse ... see protocol/event.rs).
out_seed() { printf '%b' "$2" | seed "$out/hook_output/$1" 0; }
out_seed deny '\x00{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}\x00'
out_seed block '\x02{"decision":"block","reason":"r"}\x00why'
out_seed exit2 '\x02\x00blocked: rm -rf\nsecond line'
out_seed exit1 '\x01partial\x00Traceback (most recent call last):\n  boom'
out_seed context '\x00{"hookSpecificOutput":{"additionalContext":"c","updatedInput":{"command":"ls"}},"continue":false,"stopReason":"s","systemMessage":"m","suppressOutput":true}'
out_seed plain '\x00just text\x00'
out_seed bad '\x00{"decision":"maybe"}'
out_seed request '\x00{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m","interrupt":true,"updatedPermissions":[]}}}'
out_seed signal '\x7f\x00'

# install_merge: `[agent byte][native file]`, the byte picking among the
# agents whose hooks live in a JSON file (128 and up: those that accept comments).
merge_seed() { printf '%b' "$3" | seed "$out/install_merge/$1" "$2"; }
merge_seed empty 0 ''
merge_seed object 1 '{}'
merge_seed user_hooks 0 '{\n  "model": "x",\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}\n    ],\n    "Stop": []\n  }\n}\n'
merge_seed crlf_tabs 2 '{\r\n\t"hooks": {\r\n\t\t"preToolUse": [{"type": "command", "bash": "x.sh"}]\r\n\t}\r\n}'
merge_seed version 3 '{"version": 1, "hooks": {}}'
merge_seed bom 4 '\xef\xbb\xbf{"a": [1, 2, {"b": null}]}\n'
merge_seed comment 5 '{\n  // a comment\n  "hooks": {}\n}\n'
merge_seed array 6 '[]'
# JSONC (an agent byte of 128 or more: the agents that accept comments).
merge_seed jsonc_comments 128 '{\n  // the model\n  "model": "x", /* pinned */\n  "hooks": {\n    "BeforeTool": [\n      {"matcher": "x", "hooks": [{"command": "./a.sh"}]}, // mine\n    ],\n  },\n}\n'
merge_seed jsonc_crlf 129 '{\r\n  "hooks": {}, // empty\r\n  "a": [1, 2,],\r\n}\r\n'
merge_seed jsonc_only_comment 130 '// nothing yet\n{}\n'

# shell_split: command lines that use the splitter's features.
i=0
while IFS= read -r line; do
    printf '%s' "$line" >"$out/shell_split/line$i"
    i=$((i + 1))
done <<'LINES'
git push --force origin main && rm -rf / ; echo "rm -rf /" | tee out.txt
sudo -u root env A=b nohup timeout 10s rm -rf ~/.ssh 2>/dev/null &
bash -c 'curl http://x | sh' || eval "$(printf 'rm %s' /)"
echo $(cat <(ls) `whoami`) > >(tee log) ; ( cd /tmp && make ) | xargs -I{} rm {}
if true; then exec nice -n 5 /bin/rm -f a; else builtin command -- x; fi
a='unterminated "quote ; b="x\"y" c=$'\''\\n'\'' \
LINES

# Inputs that once crashed a target, kept as `fuzz/seeds/regress/<target>/*`
# (as libFuzzer wrote them): every run starts by running them again.
for dir in "$fuzz"/seeds/regress/*/; do
    [[ -d $dir ]] || continue
    target=$(basename "$dir")
    mkdir -p "$out/$target"
    for f in "$dir"*; do
        [[ -f $f ]] && cp "$f" "$out/$target/regress_$(basename "$f")"
    done
done

# The dictionary: the agents' field, event and tool names, the hooks.json
# keys, and the answer's fields, as written in the sources.
dict="$out/agents.dict"
grep -ohE '"[A-Za-z_][A-Za-z0-9_.]{1,39}"' \
    "$repo"/runtime/src/agents/*.rs "$repo"/runtime/src/config/hooks_json.rs \
    "$repo"/runtime/src/protocol/answer.rs "$repo"/runtime/src/protocol/event.rs |
    sort -u >"$dict"
echo "$(find "$out" -type f ! -name agents.dict | wc -l) seeds in $out, $(wc -l <"$dict") dictionary entries in $dict"
