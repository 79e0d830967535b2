#!/usr/bin/env bash
#
# Multipath: two backbone daemons (media drivers) on this host, each with its own Aeron directory and its own network
# path, each carrying its own services: path A and path B each have a distributor (service NI_A / NI_B, fed by its own
# source) and p2p-server(s) attached to that path's daemon.
#
#   path A: backbone-a (Aeron dir A) ── distributor-a (NI_A) ── 127.0.0.1 UDP, streams 1001/1002 ── p2p-a-1 ...
#   path B: backbone-b (Aeron dir B) ── distributor-b (NI_B) ── 127.0.0.2 UDP, streams 2001/2002 ── p2p-b-1 ...
#
# With --transport udp (the default) each path's backbone runs over UDP unicast on its own address (on a real host:
# the address of the NIC that path uses); --transport ipc keeps each path inside its daemon. Then one test client per
# p2p-server runs for --duration seconds on that path's service; the script prints where everything listens and a
# health summary, and stops everything it started, by PID. Exit status 0 when healthy, 1 otherwise, 2 for bad usage.
#
# Usage: bin/mdhub-multipath.sh [--p2p-per-path N] [--items N] [--rate N] [--duration SECONDS]
#                                   [--transport udp|ipc] [--address-a IP] [--address-b IP] [--udp-port-a PORT]
#                                   [--udp-port-b PORT] [--run-dir DIR]
#
set -euo pipefail

readonly PROG=mdhub-multipath
# shellcheck source=bin/stack-lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/stack-lib.sh"

P2P_PER_PATH=1
ITEMS=1000
RATE=1000
DURATION=10
TRANSPORT=udp
ADDRESS_A=127.0.0.1
ADDRESS_B=127.0.0.2
UDP_PORT_A=40456
UDP_PORT_B=40466
RUN_DIR_ARG=

usage() {
    sed -n '3,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case $1 in
        --p2p-per-path) P2P_PER_PATH=$2; shift 2 ;;
        --items) ITEMS=$2; shift 2 ;;
        --rate) RATE=$2; shift 2 ;;
        --duration) DURATION=$2; shift 2 ;;
        --transport) TRANSPORT=$2; shift 2 ;;
        --address-a) ADDRESS_A=$2; shift 2 ;;
        --address-b) ADDRESS_B=$2; shift 2 ;;
        --udp-port-a) UDP_PORT_A=$2; shift 2 ;;
        --udp-port-b) UDP_PORT_B=$2; shift 2 ;;
        --run-dir) RUN_DIR_ARG=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
for option in P2P_PER_PATH ITEMS RATE DURATION UDP_PORT_A UDP_PORT_B; do
    require_int "$option" "${!option}"
done
[[ $TRANSPORT == udp || $TRANSPORT == ipc ]] || { usage >&2; exit 2; }
(( P2P_PER_PATH >= 1 && DURATION >= 1 && ITEMS >= 1 )) || { usage >&2; exit 2; }

install_traps
make_run_dir "$RUN_DIR_ARG"
ensure_built

# Per path: name, service, provider service id, distributor id, data/control stream ids, address, UDP data port
# (control on the next port), and the Aeron directory of its daemon.
PATHS=(a b)
declare -A SERVICE=([a]=NI_A [b]=NI_B)
declare -A SERVICE_ID=([a]=1 [b]=2)
declare -A DISTRIBUTOR_ID=([a]=1 [b]=2)
declare -A DATA_STREAM=([a]=1001 [b]=2001)
declare -A CONTROL_STREAM=([a]=1002 [b]=2002)
declare -A ADDRESS=([a]=$ADDRESS_A [b]=$ADDRESS_B)
declare -A UDP_PORT=([a]=$UDP_PORT_A [b]=$UDP_PORT_B)
declare -A AERON_DIR DATA_CHANNEL CONTROL_CHANNEL BACKBONE_PID DISTRIBUTOR_PID DISTRIBUTOR_PORT SOURCE_PID
declare -A P2P_PID P2P_PORT CLIENT_PID CLIENT_STATUS

for path in "${PATHS[@]}"; do
    aeron_dir "backbone-$path"
    AERON_DIR[$path]=$AERON_DIR_PATH
    if [[ $TRANSPORT == udp ]]; then
        DATA_CHANNEL[$path]="aeron:udp?endpoint=${ADDRESS[$path]}:${UDP_PORT[$path]}"
        CONTROL_CHANNEL[$path]="aeron:udp?endpoint=${ADDRESS[$path]}:$((UDP_PORT[$path] + 1))"
    else
        DATA_CHANNEL[$path]=aeron:ipc
        CONTROL_CHANNEL[$path]=aeron:ipc
    fi
done

log "logs in $RUN_DIR"
for path in "${PATHS[@]}"; do
    start "backbone-$path" backbone --aeron-dir "${AERON_DIR[$path]}" -D mdhub.backbone.dir.delete.on.shutdown=true
    BACKBONE_PID[$path]=$LAST_PID
done
for path in "${PATHS[@]}"; do
    await_line "backbone-$path" "${BACKBONE_PID[$path]}" "mdhub-backbone ready"
done

for path in "${PATHS[@]}"; do
    start "distributor-$path" distributor --aeron-dir "${AERON_DIR[$path]}" --port 0 \
        -D mdhub.distributor.component.name="distributor-$path" \
        -D mdhub.distributor.backbone.distributor.id="${DISTRIBUTOR_ID[$path]}" \
        -D mdhub.distributor.backbone.channel="${DATA_CHANNEL[$path]}" \
        -D mdhub.distributor.backbone.control.channel="${CONTROL_CHANNEL[$path]}" \
        -D mdhub.distributor.backbone.data.stream.id="${DATA_STREAM[$path]}" \
        -D mdhub.distributor.backbone.control.stream.id="${CONTROL_STREAM[$path]}"
    DISTRIBUTOR_PID[$path]=$LAST_PID
    for ((i = 1; i <= P2P_PER_PATH; i++)); do
        start "p2p-$path-$i" p2p --aeron-dir "${AERON_DIR[$path]}" --port 0 \
            -D mdhub.p2p.component.name="p2p-$path-$i" \
            -D mdhub.p2p.backbone.consumer.id=$(( ${DISTRIBUTOR_ID[$path]} * 100 + i )) \
            -D mdhub.p2p.backbone.channel="${DATA_CHANNEL[$path]}" \
            -D mdhub.p2p.backbone.control.channel="${CONTROL_CHANNEL[$path]}" \
            -D mdhub.p2p.backbone.data.stream.id="${DATA_STREAM[$path]}" \
            -D mdhub.p2p.backbone.control.stream.id="${CONTROL_STREAM[$path]}"
        P2P_PID[$path-$i]=$LAST_PID
    done
done
for path in "${PATHS[@]}"; do
    await_line "distributor-$path" "${DISTRIBUTOR_PID[$path]}" "mdhub-distributor ready"
    DISTRIBUTOR_PORT[$path]=$(ready_value "distributor-$path" port)
    for ((i = 1; i <= P2P_PER_PATH; i++)); do
        await_line "p2p-$path-$i" "${P2P_PID[$path-$i]}" "mdhub-p2p ready"
        P2P_PORT[$path-$i]=$(ready_value "p2p-$path-$i" port)
    done
done

for path in "${PATHS[@]}"; do
    start "source-$path" source --port "${DISTRIBUTOR_PORT[$path]}" --service "${SERVICE[$path]}" \
        --service-id "${SERVICE_ID[$path]}" --items "$ITEMS" --rate "$RATE"
    SOURCE_PID[$path]=$LAST_PID
done
for path in "${PATHS[@]}"; do
    await_line "source-$path" "${SOURCE_PID[$path]}" "source: refreshes $ITEMS,"
done

log "multipath: 2 backbone daemons, each its own Aeron dir, path and services ($TRANSPORT)"
for path in "${PATHS[@]}"; do
    printf '  path %s:\n' "$path"
    printf '    %-15s pid %-7s aeron dir %s\n' "backbone-$path" "${BACKBONE_PID[$path]}" "${AERON_DIR[$path]}"
    printf '    %-15s pid %-7s provider port %s, distributor id %s, data %s stream %s, control %s stream %s\n' \
        "distributor-$path" "${DISTRIBUTOR_PID[$path]}" "${DISTRIBUTOR_PORT[$path]}" "${DISTRIBUTOR_ID[$path]}" \
        "${DATA_CHANNEL[$path]}" "${DATA_STREAM[$path]}" "${CONTROL_CHANNEL[$path]}" "${CONTROL_STREAM[$path]}"
    for ((i = 1; i <= P2P_PER_PATH; i++)); do
        printf '    %-15s pid %-7s consumer port %s, backbone consumer id %s\n' "p2p-$path-$i" \
            "${P2P_PID[$path-$i]}" "${P2P_PORT[$path-$i]}" $(( ${DISTRIBUTOR_ID[$path]} * 100 + i ))
    done
    printf '    %-15s pid %-7s -> 127.0.0.1:%s, service %s (id %s), %s items, %s updates/s\n' "source-$path" \
        "${SOURCE_PID[$path]}" "${DISTRIBUTOR_PORT[$path]}" "${SERVICE[$path]}" "${SERVICE_ID[$path]}" "$ITEMS" \
        "$RATE"
done

for path in "${PATHS[@]}"; do
    for ((i = 1; i <= P2P_PER_PATH; i++)); do
        start "client-$path-$i" client --port "${P2P_PORT[$path-$i]}" --service "${SERVICE[$path]}" \
            --items "$ITEMS" --duration "$DURATION"
        CLIENT_PID[$path-$i]=$LAST_PID
        printf '    %-15s pid %-7s -> p2p-%s-%s 127.0.0.1:%s, service %s, for %ss\n' "client-$path-$i" "$LAST_PID" \
            "$path" "$i" "${P2P_PORT[$path-$i]}" "${SERVICE[$path]}" "$DURATION"
    done
done

for key in "${!CLIENT_PID[@]}"; do
    status=0
    await_exit "${CLIENT_PID[$key]}" $((DURATION + READY_TIMEOUT)) || status=$?
    CLIENT_STATUS[$key]=$status
done

healthy=1
log "health:"
for path in "${PATHS[@]}"; do
    for ((i = 1; i <= P2P_PER_PATH; i++)); do
        summary=$(client_summary "client-$path-$i")
        status=${CLIENT_STATUS[$path-$i]}
        printf '  p2p-%s-%s (port %s, %s): client exit %s: %s\n' "$path" "$i" "${P2P_PORT[$path-$i]}" \
            "${SERVICE[$path]}" "$status" "${summary:-no summary}"
        if [[ $status -ne 0 || $summary != *"items open $ITEMS, closed 0, lost 0, out of order 0"* ]]; then
            healthy=0
        fi
    done
    for name in "backbone-$path" "distributor-$path" "source-$path"; do
        case $name in
            backbone-*) pid=${BACKBONE_PID[$path]} ;;
            distributor-*) pid=${DISTRIBUTOR_PID[$path]} ;;
            *) pid=${SOURCE_PID[$path]} ;;
        esac
        kill -0 "$pid" 2> /dev/null || { log "$name is not running any more"; healthy=0; }
    done
done
if (( healthy )); then
    log "health: OK (two paths, each p2p-server served its path's service: every client opened $ITEMS items, lost 0)"
else
    log "health: FAILED (logs in $RUN_DIR)"
    exit 1
fi
