package io.mdhub.benchmarks.ripc;


import org.agrona.concurrent.status.CountersManager;

import io.mdhub.common.ripc.NettyProcessDefaults;
import io.mdhub.common.ripc.RipcChannelSettings;
import io.mdhub.common.ripc.RipcConfiguration;
import io.mdhub.common.ripc.RipcCounters;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcSession;
import io.mdhub.common.ripc.RipcVersion;
import io.mdhub.common.status.InMemoryCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * RIPC data-phase handlers set up for micro-benchmarks on an {@link EmbeddedChannel}: its event loop is the calling
 * thread, which the handlers require (they run on their channel's event loop only), and it needs no socket and no
 * thread. The session and settings are the servers' defaults (RIPC14, maxUserMsgSize 6144, packing on), and Netty
 * gets the process settings every server main applies, so that leak sampling does not show up as allocation.
 */
public final class RipcChannels
{
    private static final int COUNTERS = 64;

    private RipcChannels()
    {
    }

    /**
     * @param handlers the pipeline, in order.
     * @return a registered, active channel with the servers' Netty settings.
     */
    public static EmbeddedChannel newChannel(final ChannelHandler... handlers)
    {
        NettyProcessDefaults.apply(); // before the first pooled buffer loads Netty's Recycler
        return new EmbeddedChannel(handlers);
    }

    /**
     * @return the channel of an encoder with the default session and settings.
     */
    public static EmbeddedChannel newEncoderChannel()
    {
        return newChannel(new RipcFrameEncoder(session(), settings()));
    }

    /**
     * @return a RIPC14 session with the default maxUserMsgSize.
     */
    public static RipcSession session()
    {
        return new RipcSession(RipcVersion.RIPC14, RipcConfiguration.MAX_USER_MSG_SIZE_DEFAULT, 60, 0, 14, 1,
            "mdhub-bench", "", "", 0);
    }

    /**
     * @return the default channel settings, with counters of their own.
     */
    public static RipcChannelSettings settings()
    {
        final CountersManager countersManager = new InMemoryCounters(COUNTERS).manager();
        return new RipcChannelSettings("mdhub-bench", new RipcCounters(countersManager, "mdhub-bench"),
            RipcConfiguration.HANDSHAKE_TIMEOUT_DEFAULT_NS, RipcConfiguration.PARTIAL_FRAME_TIMEOUT_DEFAULT_NS,
            RipcConfiguration.MAX_REASSEMBLED_MSG_SIZE_DEFAULT, RipcConfiguration.MAX_REASSEMBLY_BYTES_DEFAULT,
            RipcConfiguration.PACK_OUTBOUND_DEFAULT);
    }

    /**
     * Take and release every frame the channel has written, as the socket would.
     *
     * @param channel the channel.
     * @return the bytes taken.
     */
    public static int drainOutbound(final EmbeddedChannel channel)
    {
        int bytes = 0;
        ByteBuf frame = channel.readOutbound();
        while (null != frame)
        {
            bytes += frame.readableBytes();
            frame.release();
            frame = channel.readOutbound();
        }
        return bytes;
    }
}
