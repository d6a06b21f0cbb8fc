#!/usr/bin/env bash
# The dangerous-command guard as a bash + jq command hook (a benchmark peer).
#
# Claude Code's protocol: the event JSON on stdin; a deny is a JSON answer on
# stdout. The same rules as guard.py and guest-examples/dangerous-command-guard;
# commands are split on ; && || | & and words on blanks (quotes are not
# removed, so quoted text stays one argument's text, as in the other peers).
set -u

input=$(cat)
{ IFS= read -r event; IFS= read -r -d '' command; } < <(jq -r '.hook_event_name // "", (.tool_input.command // "")' <<<"$input")
command=${command%$'\n'}
[[ $event == PreToolUse || $event == PermissionRequest ]] || exit 0
[[ -n $command ]] || exit 0

system_dirs=" /bin /boot /dev /etc /home /lib /lib64 /opt /proc /root /sbin /srv /sys /usr /var /Users /System /Applications "

deny() {
  jq -cn --arg e "$event" --arg r "dangerous-command-guard: $1" \
    '{hookSpecificOutput: {hookEventName: $e, permissionDecision: "deny", permissionDecisionReason: $r}}'
  exit 0
}

is_disk() { [[ $1 =~ ^/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk) ]]; }

precious() { # prints what is precious about $1, or fails
  local path=$1 p=$1
  while :; do
    case $p in
      */\*) p=${p%/\*} ;; */.) p=${p%/.} ;; */) p=${p%/} ;; *) break ;;
    esac
  done
  if [[ $path == /* && ( -z $p || $p == '*' ) ]]; then echo '`/` (the whole filesystem)'; return 0; fi
  if [[ $p == '~' || $p == '$HOME' || $p == '${HOME}' || ( $p == '~'* && $p != */* ) ]]; then echo "\`$path\` (a home directory)"; return 0; fi
  if [[ $system_dirs == *" $p "* ]]; then echo "\`$path\` (a system directory)"; return 0; fi
  return 1
}

recursive() { # recursive FLAG ARGS...
  local flag=$1 a; shift
  for a in "$@"; do
    [[ $a == -- ]] && return 1
    [[ $a == --recursive ]] && return 0
    [[ $a == -* && $a != --* && $a == *"$flag"* ]] && return 0
  done
  return 1
}

precious_operand() { # prints the first precious operand of ARGS
  local a after=0 what
  for a in "$@"; do
    if (( after )) || [[ $a != -* || $a == - ]]; then
      what=$(precious "$a") && { echo "$what"; return 0; }
    elif [[ $a == -- ]]; then after=1; fi
  done
  return 1
}

# Fork bombs: NAME(){ NAME|NAME& }
squeezed=${command//[[:space:]]/}
rest=$squeezed
while [[ $rest =~ ([A-Za-z_:.][A-Za-z0-9_:.-]*)\(\)\{(.*) ]]; do
  name=${BASH_REMATCH[1]} rest=${BASH_REMATCH[2]}
  [[ $rest == "$name|$name&"* ]] && deny "\`$name(){ $name|$name& }\` is a fork bomb"
done

# Simple commands, and whether each is piped into the next.
marked=$(sed -E 's/\|\|/\x01/g; s/&&/\x01/g; s/;/\x01/g; s/\|/\x02/g; s/&/\x01/g' <<<"$command")
prev_download=""
while IFS= read -r -d $'\n' line; do
  piped=0; [[ $line == *$'\x02' ]] && piped=1
  line=${line%$'\x02'}; line=${line%$'\x01'}
  read -ra words <<<"$line"
  # Redirects onto a disk.
  for ((i = 0; i < ${#words[@]}; i++)); do
    w=${words[i]}
    if [[ $w == '>' || $w == '>>' ]]; then is_disk "${words[i+1]:-}" && deny "writing onto the disk device \`${words[i+1]}\` destroys it"
    elif [[ $w == '>'* ]]; then t=${w#>}; t=${t#>}; is_disk "$t" && deny "writing onto the disk device \`$t\` destroys it"; fi
  done
  while (( ${#words[@]} )) && [[ ${words[0]} == sudo || ${words[0]} == env || ${words[0]} == nohup || ${words[0]} == time || ${words[0]} == *=* ]]; do
    words=("${words[@]:1}")
  done
  (( ${#words[@]} )) || { prev_download=""; continue; }
  program=${words[0]##*/}
  args=("${words[@]:1}")
  case $program in
    rm)
      if recursive r "${args[@]}" || recursive R "${args[@]}"; then
        what=$(precious_operand "${args[@]}") && deny "refusing a recursive delete of $what"
      fi ;;
    chmod|chown|chgrp)
      if recursive R "${args[@]}"; then
        what=$(precious_operand "${args[@]}") && deny "refusing a recursive \`$program\` of $what"
      fi ;;
    dd)
      for a in "${args[@]}"; do
        [[ $a == of=* ]] && is_disk "${a#of=}" && deny "\`dd\` onto the disk device \`${a#of=}\` destroys it"
      done ;;
    mkfs*|mke2fs) deny "\`$program\` formats a filesystem, erasing it" ;;
    sh|bash|zsh|dash|ksh|ash|fish)
      [[ -n $prev_download ]] && deny "piping a \`$prev_download\` download into \`$program\` runs unreviewed code"
      for a in "${args[@]}"; do
        if [[ $a =~ (\$\(|\`|\<\()[[:space:]]*(curl|wget|fetch) ]]; then
          deny "running a \`${BASH_REMATCH[2]}\` download with \`$program\` runs unreviewed code"
        fi
      done ;;
  esac
  if (( piped )); then
    case $program in curl|wget|fetch) prev_download=$program ;; esac
  else
    prev_download=""
  fi
done < <(tr '\001\002' '\n\002' <<<"$marked" | sed -E $'s/\x02/\x02\\n/g')
exit 0
