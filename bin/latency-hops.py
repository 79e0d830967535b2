#!/usr/bin/env python3
"""Where an update's latency goes between the path's TCP hops, from a packet capture of a latency bench run.

The bench's source puts its System.nanoTime() into a sample of the updates (field MDH_ORGTIM, -4002). The same bytes
cross loopback twice: source -> distributor, and p2p-server -> client. Matching the two segments that carry one stamp
splits its latency into three parts: stamp -> first hop (the source), first -> second hop (distributor, backbone and
p2p-server), and what the client adds after (its own report minus the capture's figures). Optionally, a log of when
some kernel thread ran (see `kthread`) is laid beside it: how many slow updates fall shortly after one of its runs,
against how many updates of any speed do.

    tcpdump -i lo -s 2000 -B 262144 --time-stamp-precision=nano -w run.pcap 'tcp and greater 80' &
    bin/latency-hops.py kthread 77 --seconds 200 > kdamond.log &      # 77: the kernel thread's pid
    bin/mdhub bench latency --items 100000 --pin --realtime 10 --rates 10000 --warmup-seconds 5 --step-seconds 30
    bin/latency-hops.py hops run.pcap --activity kdamond.log --last-seconds 30

Capture with a snap length that holds whole segments (-s 2000): stamps beyond the snap length are not seen, and the
ones that remain are then the first updates of each burst, the fastest. Standard library only.
"""
import argparse
import bisect
import collections
import struct
import sys
import time

ORIGIN_FIELD = b'\xf0\x5e'  # field id -4002 as RWF writes it (big-endian int16)
PCAP_NANO = 0xa1b23c4d
PCAP_MICRO = 0xa1b2c3d4


def stamps_by_flow(path):
    """Yield (capture time ns, (source port, destination port), stamp) for every origin stamp in a pcap file."""
    with open(path, 'rb') as file:
        data = file.read()
    magic = struct.unpack('<I', data[:4])[0]
    if magic not in (PCAP_NANO, PCAP_MICRO):
        sys.exit(f'{path}: not a little-endian pcap file (magic {magic:#x})')
    scale = 1 if magic == PCAP_NANO else 1000
    offset = 24
    while offset + 16 <= len(data):
        seconds, fraction, captured, _ = struct.unpack('<IIII', data[offset:offset + 16])
        offset += 16
        packet = data[offset:offset + captured]
        offset += captured
        if len(packet) < 54 or packet[12:14] != b'\x08\x00' or packet[23] != 6:
            continue  # not Ethernet + IPv4 + TCP
        tcp = 14 + (packet[14] & 0x0f) * 4
        ports = struct.unpack('>HH', packet[tcp:tcp + 4])
        payload = packet[tcp + (packet[tcp + 12] >> 4) * 4:]
        at = payload.find(ORIGIN_FIELD)
        while 0 <= at < len(payload) - 3:
            length = payload[at + 2]
            if 5 <= length <= 8 and at + 3 + length <= len(payload):
                stamp = int.from_bytes(payload[at + 3:at + 3 + length], 'big', signed=True)
                yield seconds * 1_000_000_000 + fraction * scale, ports, stamp
            at = payload.find(ORIGIN_FIELD, at + 1)


def quantile(sorted_values, q):
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summary(name, values_ns, slow_ns):
    values = sorted(values_ns)
    us = [v / 1000 for v in values]
    slow = sum(1 for v in values if v > slow_ns)
    print(f'{name:34s} mean {sum(us) / len(us):8.1f}  p50 {quantile(us, .5):7.1f}  p90 {quantile(us, .9):7.1f}  '
          f'p99 {quantile(us, .99):8.1f}  p99.9 {quantile(us, .999):8.1f}  max {us[-1]:9.1f}  '
          f'> {slow_ns // 1000} us: {100 * slow / len(values):.2f} %')


def hops(args):
    first_seen = {}
    flows = collections.Counter()
    for at, flow, stamp in stamps_by_flow(args.pcap):
        flows[flow] += 1
        first_seen.setdefault((stamp, flow), at)
    if len(flows) < 2:
        sys.exit(f'{args.pcap}: origin stamps in {len(flows)} flow(s); two are needed (source and client hops)')
    (one, _), (other, _) = flows.most_common(2)
    pairs = []
    for (stamp, flow), at in first_seen.items():
        if flow == one and (stamp, other) in first_seen:
            pairs.append((stamp, at, first_seen[(stamp, other)]))
    if sum(1 for _, a, b in pairs if a < b) < len(pairs) / 2:
        pairs = [(stamp, b, a) for stamp, a, b in pairs]  # the flow seen first is the source's
    if not pairs:
        sys.exit('no stamp crossed both hops')
    end = max(b for _, _, b in pairs)
    if args.last_seconds:
        pairs = [p for p in pairs if p[2] > end - args.last_seconds * 1_000_000_000]
    # capture times are wall-clock, stamps monotonic: the smallest stamp -> first hop difference is taken as zero
    offset = min(a - stamp for stamp, a, _ in pairs)
    slow_ns = args.slow_us * 1000
    print(f'{len(pairs)} stamped updates seen on both hops (flows {one} and {other}); '
          f'stamp -> first hop is relative to its minimum')
    summary('stamp -> source hop', [a - stamp - offset for stamp, a, _ in pairs], slow_ns)
    summary('source hop -> client hop', [b - a for _, a, b in pairs], slow_ns)
    summary('stamp -> client hop', [b - stamp - offset for stamp, _, b in pairs], slow_ns)
    if args.activity:
        with open(args.activity) as file:
            runs = sorted(int(line.split()[0]) for line in file if line.strip())
        window = args.window_ms * 1_000_000

        def shortly_after_a_run(at):
            i = bisect.bisect_right(runs, at)
            return i > 0 and at - runs[i - 1] < window

        near = [shortly_after_a_run(a) for _, a, _ in pairs]
        slow = [n for n, (_, a, b) in zip(near, pairs) if b - a > slow_ns]
        print(f'within {args.window_ms} ms after a logged run: {100 * sum(near) / len(near):.1f} % of all updates, '
              f'{100 * sum(slow) / max(1, len(slow)):.1f} % of the {len(slow)} slower than {args.slow_us} us '
              f'between the hops')
        for label, keep in (('outside those windows', False), ('inside them', True)):
            hop = [(b - a) / 1000 for n, (_, a, b) in zip(near, pairs) if n == keep]
            if hop:
                print(f'  source hop -> client hop {label}: mean {sum(hop) / len(hop):.1f} us over {len(hop)} updates')


def kthread(args):
    """Print CLOCK_REALTIME ns and the CPU ms it used whenever the thread has run since the last look."""
    path = f'/proc/{args.pid}/sched'

    def runtime_ms():
        with open(path) as file:
            for line in file:
                if line.startswith('se.sum_exec_runtime'):
                    return float(line.split(':')[1])
        sys.exit(f'{path}: no se.sum_exec_runtime')

    last = runtime_ms()
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        time.sleep(args.period_ms / 1000)
        now = runtime_ms()
        if now != last:
            print(f'{time.clock_gettime_ns(time.CLOCK_REALTIME)} {now - last:.3f}', flush=True)
            last = now


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    commands = parser.add_subparsers(dest='command', required=True)
    h = commands.add_parser('hops', help='split the latency of stamped updates between the two TCP hops')
    h.add_argument('pcap')
    h.add_argument('--activity', help='a log written by the kthread command')
    h.add_argument('--window-ms', type=int, default=30, help='"shortly after a run" (default 30)')
    h.add_argument('--slow-us', type=int, default=300, help='what counts as slow (default 300)')
    h.add_argument('--last-seconds', type=int, help='only the last seconds of the capture (the measured step)')
    h.set_defaults(run=hops)
    k = commands.add_parser('kthread', help='log when a (kernel) thread runs')
    k.add_argument('pid', type=int)
    k.add_argument('--seconds', type=float, default=120)
    k.add_argument('--period-ms', type=float, default=2, help='how often to look (default 2)')
    k.set_defaults(run=kthread)
    args = parser.parse_args()
    args.run(args)


if __name__ == '__main__':
    main()
