# shellcheck shell=bash
#
# Helpers shared by the stacking scripts (mdhub-multiplex.sh, mdhub-multipath.sh). Sourced, not run.
#
# Every process is started through bin/mdhub (which runs each JVM with -Dchronicle.analytics.disable=true), in the
# background, with its output in RUN_DIR/<name>.log; its PID is remembered and stop_all (run from the EXIT trap)
# ends exactly those PIDs, newest first: SIGTERM, then SIGKILL after STOP_TIMEOUT seconds.
#

MDHUB_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
readonly MDHUB_HOME
readonly MDHUB=$MDHUB_HOME/bin/mdhub
readonly STOP_TIMEOUT=10
READY_TIMEOUT=${READY_TIMEOUT:-90}

# Small JVMs: several share this host. The analytics flag is set by bin/mdhub too; repeated here for anyone reading.
export JAVA_OPTS="${JAVA_OPTS:--Xmx256m -XX:+UseSerialGC} -Dchronicle.analytics.disable=true"

STARTED_PIDS=()
STARTED_NAMES=()
CLEANUP_PATHS=()
RUN_DIR=

log() {
    printf '%s: %s\n' "$PROG" "$*"
}

die() {
    printf '%s: %s\n' "$PROG" "$*" >&2
    exit 1
}

# make_run_dir [DIR]: where the logs go (kept after the run).
make_run_dir() {
    if [[ -n ${1:-} ]]; then
        RUN_DIR=$1
        mkdir -p "$RUN_DIR"
    else
        RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/$PROG.XXXXXX")
    fi
    RUN_DIR=$(cd "$RUN_DIR" && pwd -P)
}

# aeron_dir NAME: sets AERON_DIR_PATH to a fresh Aeron directory path, in /dev/shm when there is one; stop_all
# removes it (not a $(...) helper: the cleanup list must be extended in this shell, not a subshell).
aeron_dir() {
    local base=${TMPDIR:-/tmp}
    [[ -d /dev/shm && -w /dev/shm ]] && base=/dev/shm
    AERON_DIR_PATH=$base/$PROG-$$-$1
    CLEANUP_PATHS+=("$AERON_DIR_PATH")
}

# Build the jars once, up front, if any is missing or stale (bin/mdhub would otherwise build in every process
# started at once); then forbid further builds.
ensure_built() {
    if [[ -z ${MDHUB_NO_BUILD:-} ]]; then
        "$MDHUB" backbone --version > /dev/null || die "cannot build or run the jars"
        export MDHUB_NO_BUILD=1
    fi
}

# start NAME COMMAND [ARGS...]: run `bin/mdhub COMMAND ARGS` in the background (bin/mdhub execs java, so the PID is
# the JVM's); sets LAST_PID.
start() {
    local name=$1
    shift
    "$MDHUB" "$@" > "$RUN_DIR/$name.log" 2>&1 < /dev/null &
    LAST_PID=$!
    STARTED_PIDS+=("$LAST_PID")
    STARTED_NAMES+=("$name")
}

# await_line NAME PID TEXT: wait until NAME's log contains TEXT; fail if the process ends or READY_TIMEOUT passes.
await_line() {
    local name=$1 pid=$2 text=$3 waited=0
    while ! grep -qF -- "$text" "$RUN_DIR/$name.log" 2> /dev/null; do
        if ! kill -0 "$pid" 2> /dev/null; then
            tail -n 30 "$RUN_DIR/$name.log" >&2 || true
            die "$name (pid $pid) ended before printing '$text'"
        fi
        if (( waited >= READY_TIMEOUT * 5 )); then
            tail -n 30 "$RUN_DIR/$name.log" >&2 || true
            die "$name (pid $pid) did not print '$text' within ${READY_TIMEOUT}s"
        fi
        sleep 0.2
        waited=$((waited + 1))
    done
}

# ready_value NAME KEY: the value of KEY=... on NAME's ready line (e.g. port).
ready_value() {
    grep -m 1 ' ready: ' "$RUN_DIR/$1.log" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# await_exit PID SECONDS: wait for a process of ours to end; returns its exit status (124 if it did not end).
await_exit() {
    local pid=$1 limit=$2 waited=0
    while kill -0 "$pid" 2> /dev/null && (( waited < limit * 5 )); do
        sleep 0.2
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2> /dev/null; then
        return 124
    fi
    local status=0
    wait "$pid" || status=$?
    return "$status"
}

# stop_pid PID: SIGTERM, then SIGKILL after STOP_TIMEOUT seconds.
stop_pid() {
    local pid=$1 waited=0
    kill -0 "$pid" 2> /dev/null || { wait "$pid" 2> /dev/null || true; return 0; }
    kill -TERM "$pid" 2> /dev/null || true
    while kill -0 "$pid" 2> /dev/null && (( waited < STOP_TIMEOUT * 10 )); do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2> /dev/null; then
        log "pid $pid did not stop within ${STOP_TIMEOUT}s: SIGKILL"
        kill -KILL "$pid" 2> /dev/null || true
    fi
    wait "$pid" 2> /dev/null || true
}

# stop_all: every process this script started, newest first; then the Aeron directories. Run from the EXIT trap.
stop_all() {
    local i
    (( ${#STARTED_PIDS[@]} == 0 )) || log "stopping ${#STARTED_PIDS[@]} process(es): ${STARTED_NAMES[*]}"
    for ((i = ${#STARTED_PIDS[@]} - 1; i >= 0; i--)); do
        stop_pid "${STARTED_PIDS[i]}"
    done
    STARTED_PIDS=()
    for i in "${CLEANUP_PATHS[@]+"${CLEANUP_PATHS[@]}"}"; do
        rm -rf -- "$i"
    done
}

install_traps() {
    trap stop_all EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# client_summary NAME: the test client's totals line.
client_summary() {
    grep -m 1 '^mdhub-client: refreshes ' "$RUN_DIR/$1.log" | sed 's/^mdhub-client: //' || true
}

# require_int NAME VALUE
require_int() {
    [[ $2 =~ ^[0-9]+$ ]] || die "$1 must be a whole number: '$2'"
}
