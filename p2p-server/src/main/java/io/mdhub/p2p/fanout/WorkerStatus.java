package io.mdhub.p2p.fanout;

import java.util.List;

import io.mdhub.p2p.source.ServiceInfo;

/**
 * What one fan-out worker's item source carries and hears at one moment, for health checks and tools.
 *
 * @param worker        the worker's index.
 * @param liveUpstreams distributors it hears, or {@link io.mdhub.p2p.source.ItemSource#NO_UPSTREAMS}.
 * @param services      the services its source carries, with their states.
 */
public record WorkerStatus(int worker, int liveUpstreams, List<ServiceInfo> services)
{
}
