#!/usr/bin/env bash
#
# Multiplex: several p2p-server processes sharing ONE standalone backbone daemon (media driver) on this host.
#
#   backbone daemon (one Aeron dir) ── distributor ── IPC data/control streams ──┬── p2p-1 ── test client 1
#                    source ──RSSL──▶ distributor                                ├── p2p-2 ── test client 2
#                                                                                └── ...
#
# Starts the backbone daemon, one distributor, N p2p-servers (each with its own consumer port and backbone consumer
# id), a source publishing into the distributor, then one test client per p2p-server for --duration seconds; prints
# where everything listens and a health summary (every client must open every item and lose nothing), then stops
# everything it started, by PID. Exit status 0 when healthy, 1 otherwise, 2 for bad usage.
#
# Usage: bin/mdhub-multiplex.sh [--p2p-servers N] [--workers N] [--items N] [--rate N] [--duration SECONDS]
#                                   [--run-dir DIR]
#
set -euo pipefail

readonly PROG=mdhub-multiplex
# shellcheck source=bin/stack-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/stack-lib.sh"

P2P_SERVERS=2
WORKERS=1
ITEMS=1000
RATE=1000
DURATION=10
RUN_DIR_ARG=
SERVICE=NI_PUB
DISTRIBUTOR_ID=1
FIRST_CONSUMER_ID=101

usage() {
    sed -n '3,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --p2p-servers) P2P_SERVERS=$2; shift 2 ;;
        --workers) WORKERS=$2; shift 2 ;;
        --items) ITEMS=$2; shift 2 ;;
        --rate) RATE=$2; shift 2 ;;
        --duration) DURATION=$2; shift 2 ;;
        --run-dir) RUN_DIR_ARG=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
for option in P2P_SERVERS WORKERS ITEMS RATE DURATION; do
    require_int "$option" "${!option}"
done
(( P2P_SERVERS >= 1 && DURATION >= 1 && ITEMS >= 1 )) || { usage >&2; exit 2; }

install_traps
make_run_dir "$RUN_DIR_ARG"
ensure_built
aeron_dir backbone
AERON_DIR=$AERON_DIR_PATH

log "logs in $RUN_DIR"
start backbone backbone --aeron-dir "$AERON_DIR" -D mdhub.backbone.dir.delete.on.shutdown=true
BACKBONE_PID=$LAST_PID
await_line backbone "$BACKBONE_PID" "mdhub-backbone ready"

start distributor distributor --aeron-dir "$AERON_DIR" --port 0 \
    -D mdhub.distributor.component.name=distributor-1 \
    -D mdhub.distributor.backbone.distributor.id=$DISTRIBUTOR_ID
DISTRIBUTOR_PID=$LAST_PID

P2P_PIDS=()
for ((i = 1; i <= P2P_SERVERS; i++)); do
    start "p2p-$i" p2p --aeron-dir "$AERON_DIR" --port 0 \
        -D mdhub.p2p.component.name="p2p-$i" \
        -D mdhub.p2p.workers="$WORKERS" \
        -D mdhub.p2p.backbone.consumer.id=$((FIRST_CONSUMER_ID + i - 1))
    P2P_PIDS+=("$LAST_PID")
done
await_line distributor "$DISTRIBUTOR_PID" "mdhub-distributor ready"
DISTRIBUTOR_PORT=$(ready_value distributor port)
P2P_PORTS=()
for ((i = 1; i <= P2P_SERVERS; i++)); do
    await_line "p2p-$i" "${P2P_PIDS[i - 1]}" "mdhub-p2p ready"
    P2P_PORTS+=("$(ready_value "p2p-$i" port)")
done

start source source --port "$DISTRIBUTOR_PORT" --service "$SERVICE" --items "$ITEMS" --rate "$RATE"
SOURCE_PID=$LAST_PID
await_line source "$SOURCE_PID" "source: refreshes $ITEMS,"

log "multiplex: $P2P_SERVERS p2p-server(s) share one backbone daemon"
printf '  %-12s pid %-7s aeron dir %s (one media driver, SHARED threading)\n' backbone "$BACKBONE_PID" "$AERON_DIR"
printf '  %-12s pid %-7s provider port %s, distributor id %s, backbone aeron:ipc streams 1001 (data) / 1002 (control)\n' \
    distributor "$DISTRIBUTOR_PID" "$DISTRIBUTOR_PORT" "$DISTRIBUTOR_ID"
for ((i = 1; i <= P2P_SERVERS; i++)); do
    printf '  %-12s pid %-7s consumer port %s, backbone consumer id %s, %s worker(s), aeron:ipc streams 1001 / 1002\n' \
        "p2p-$i" "${P2P_PIDS[i - 1]}" "${P2P_PORTS[i - 1]}" $((FIRST_CONSUMER_ID + i - 1)) "$WORKERS"
done
printf '  %-12s pid %-7s -> 127.0.0.1:%s, service %s, %s items, %s updates/s\n' source "$SOURCE_PID" \
    "$DISTRIBUTOR_PORT" "$SERVICE" "$ITEMS" "$RATE"

CLIENT_PIDS=()
for ((i = 1; i <= P2P_SERVERS; i++)); do
    start "client-$i" client --port "${P2P_PORTS[i - 1]}" --service "$SERVICE" --items "$ITEMS" \
        --duration "$DURATION"
    CLIENT_PIDS+=("$LAST_PID")
    printf '  %-12s pid %-7s -> p2p-%s 127.0.0.1:%s for %ss\n' "client-$i" "$LAST_PID" "$i" "${P2P_PORTS[i - 1]}" \
        "$DURATION"
done

healthy=1
STATUSES=()
for ((i = 1; i <= P2P_SERVERS; i++)); do
    status=0
    await_exit "${CLIENT_PIDS[i - 1]}" $((DURATION + READY_TIMEOUT)) || status=$?
    STATUSES+=("$status")
done
log "health:"
for ((i = 1; i <= P2P_SERVERS; i++)); do
    summary=$(client_summary "client-$i")
    status=${STATUSES[i - 1]}
    printf '  p2p-%s (port %s): client exit %s: %s\n' "$i" "${P2P_PORTS[i - 1]}" "$status" "${summary:-no summary}"
    if [[ $status -ne 0 || $summary != *"items open $ITEMS, closed 0, lost 0, out of order 0"* ]]; then
        healthy=0
    fi
done
for name_pid in "distributor:$DISTRIBUTOR_PID" "backbone:$BACKBONE_PID" "source:$SOURCE_PID"; do
    kill -0 "${name_pid#*:}" 2> /dev/null || { log "${name_pid%%:*} is not running any more"; healthy=0; }
done
if (( healthy )); then
    log "health: OK ($P2P_SERVERS p2p-server(s) on one backbone daemon: every client opened $ITEMS items, lost 0)"
else
    log "health: FAILED (logs in $RUN_DIR)"
    exit 1
fi
