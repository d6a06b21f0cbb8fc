#!/usr/bin/env bash
# A real OCI registry on 127.0.0.1 for the tests of `oci://` components
# (tests/all/oci.rs): Debian's `docker-registry` (the CNCF distribution
# registry), installed with apt like .ci/windows.sh installs MinGW.
#
#   eval "$(.ci/registry.sh start)"   # prints the exports below
#   .ci/registry.sh stop              # kills it, removes its storage
#
# `start` runs the registry on a free port with its own temporary config
# and storage, waits until it answers, and prints:
#   AGENTHOOKS_TEST_REGISTRY=127.0.0.1:PORT          where the tests push and pull
#   AGENTHOOKS_TEST_REGISTRY_STORAGE=DIR              its storage (tests corrupt a blob there)
#   AGENTHOOKS_TEST_REGISTRY_DIR=DIR                  its state (for `stop`)
# The tests also start private registries with the same binary (to stop one
# and show `run` needs no network).
set -euo pipefail

start() {
    if ! command -v docker-registry >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        {
            apt-get update -qq
            apt-get install -y -qq --no-install-recommends docker-registry
        } >&2
    fi
    local dir port
    dir=$(mktemp -d "${TMPDIR:-/tmp}/agenthooks-registry.XXXXXX")
    # A free port: ask the kernel for one, bind-test a few if that fails.
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || true)
    if [[ -z $port ]]; then
        for port in $(shuf -i 20000-60000 -n 20); do
            (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
        done
    fi
    mkdir -p "$dir/storage"
    cat >"$dir/config.yml" <<EOF
version: 0.1
log:
  level: error
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: $dir/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$port
EOF
    # setsid: its own process group, so `stop` ends it and nothing else.
    setsid docker-registry serve "$dir/config.yml" >"$dir/log" 2>&1 </dev/null &
    echo $! >"$dir/pid"
    local i
    for i in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "export AGENTHOOKS_TEST_REGISTRY=127.0.0.1:$port"
            echo "export AGENTHOOKS_TEST_REGISTRY_STORAGE=$dir/storage"
            echo "export AGENTHOOKS_TEST_REGISTRY_DIR=$dir"
            echo "registry: docker-registry on 127.0.0.1:$port, storage $dir/storage" >&2
            return 0
        fi
        if ! kill -0 "$(cat "$dir/pid")" 2>/dev/null; then break; fi
        sleep 0.1
    done
    echo "registry: docker-registry did not start on 127.0.0.1:$port:" >&2
    cat "$dir/log" >&2
    stop_dir "$dir"
    return 1
}

stop_dir() {
    local dir=$1
    # Only a directory `start` made: never whatever the variable says.
    [[ -n $dir && -d $dir && $(basename "$dir") == agenthooks-registry.* ]] || return 0
    if [[ -f $dir/pid ]]; then
        local pid
        pid=$(cat "$dir/pid")
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
start) start ;;
stop) stop_dir "${AGENTHOOKS_TEST_REGISTRY_DIR:-}" ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
