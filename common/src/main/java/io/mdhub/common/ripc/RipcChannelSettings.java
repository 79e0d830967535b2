package io.mdhub.common.ripc;

/**
 * The concluded, immutable settings every RIPC handler of one component (server or client) reads. Built by the
 * component's Context at conclude; what the handshake negotiates per connection lives in {@link RipcSession}.
 */
public final class RipcChannelSettings
{
    private final String componentName;
    private final RipcCounters counters;
    private final RipcDisconnects disconnects;
    private final RipcChannelTracker channelTracker = new RipcChannelTracker();
    private final long handshakeTimeoutNs;
    private final long partialFrameTimeoutNs;
    private final int maxReassembledMessageSize;
    private final int maxReassemblyBytes;
    private final boolean packOutbound;

    /**
     * @param componentName             component name for logs, counter labels and the handshake.
     * @param counters                  the component's counters.
     * @param handshakeTimeoutNs        longest time from TCP connect to a completed handshake.
     * @param partialFrameTimeoutNs     longest time one frame may stay incomplete.
     * @param maxReassembledMessageSize largest fragmented message accepted.
     * @param maxReassemblyBytes        most bytes one connection may hold in reassembly buffers at once.
     * @param packOutbound              pack messages written between two flushes into packed frames.
     */
    public RipcChannelSettings(
        final String componentName,
        final RipcCounters counters,
        final long handshakeTimeoutNs,
        final long partialFrameTimeoutNs,
        final int maxReassembledMessageSize,
        final int maxReassemblyBytes,
        final boolean packOutbound)
    {
        this.componentName = componentName;
        this.counters = counters;
        this.disconnects = new RipcDisconnects(componentName, counters);
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        this.partialFrameTimeoutNs = partialFrameTimeoutNs;
        this.maxReassembledMessageSize = maxReassembledMessageSize;
        this.maxReassemblyBytes = maxReassemblyBytes;
        this.packOutbound = packOutbound;
    }

    /**
     * @return component name.
     */
    public String componentName()
    {
        return componentName;
    }

    /**
     * @return the component's counters.
     */
    public RipcCounters counters()
    {
        return counters;
    }

    /**
     * @return the disconnect recorder.
     */
    public RipcDisconnects disconnects()
    {
        return disconnects;
    }

    /**
     * @return the live channels of the component, counted by the connection guard.
     */
    RipcChannelTracker channelTracker()
    {
        return channelTracker;
    }

    /**
     * @return handshake timeout in nanoseconds.
     */
    public long handshakeTimeoutNs()
    {
        return handshakeTimeoutNs;
    }

    /**
     * @return partial-frame timeout in nanoseconds.
     */
    public long partialFrameTimeoutNs()
    {
        return partialFrameTimeoutNs;
    }

    /**
     * @return largest fragmented message accepted, in bytes.
     */
    public int maxReassembledMessageSize()
    {
        return maxReassembledMessageSize;
    }

    /**
     * @return most bytes one connection may hold in reassembly buffers at once.
     */
    public int maxReassemblyBytes()
    {
        return maxReassemblyBytes;
    }

    /**
     * @return true when outbound messages are packed between flushes.
     */
    public boolean packOutbound()
    {
        return packOutbound;
    }
}
