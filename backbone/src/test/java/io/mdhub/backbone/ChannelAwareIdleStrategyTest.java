package io.mdhub.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.aeron.driver.status.ReceiveChannelStatus;
import io.aeron.driver.status.SendChannelStatus;

/**
 * The shared driver thread parks longer only while its counters show no UDP channel, and only a back-off with a
 * shorter longest park is wrapped.
 */
@Timeout(10)
class ChannelAwareIdleStrategyTest
{
    private final CountersManager counters = new CountersManager(
        new UnsafeBuffer(new byte[64 * 1024]), new UnsafeBuffer(new byte[16 * 1024]));

    @Test
    void onlyABackoffWithAShorterParkIsWrapped()
    {
        final IdleStrategy backoff = new BackoffIdleStrategy(0, 0, 1000, 10_000_000);
        assertInstanceOf(ChannelAwareIdleStrategy.class,
            ChannelAwareIdleStrategy.wrap("backoff:0,0,1000,10000000", 100_000_000, backoff));
        assertSame(backoff, ChannelAwareIdleStrategy.wrap("backoff:0,0,1000,10000000", 0, backoff), "off");
        assertSame(backoff, ChannelAwareIdleStrategy.wrap("backoff:0,0,1000,10000000", 5_000_000, backoff),
            "not longer than the configured park");
        final IdleStrategy spin = new BusySpinIdleStrategy();
        assertSame(spin, ChannelAwareIdleStrategy.wrap("spin", 100_000_000, spin));
    }

    @Test
    void udpChannelsAreFoundAmongTheDriversCountersAndNoneMeansIpcOnly()
    {
        final ChannelAwareIdleStrategy strategy = (ChannelAwareIdleStrategy)ChannelAwareIdleStrategy.wrap(
            "backoff", 100_000_000, new BackoffIdleStrategy());
        assertTrue(strategy.hasUdpChannels(), "the short park until the counters are known");

        strategy.watch(counters);
        final int ipc = counters.allocate("ipc publication limit", 9);
        assertFalse(strategy.hasUdpChannels());

        final int send = counters.allocate("snd-channel: aeron:udp", SendChannelStatus.SEND_CHANNEL_STATUS_TYPE_ID);
        assertTrue(strategy.hasUdpChannels());
        counters.free(send);
        assertFalse(strategy.hasUdpChannels(), "a freed channel counter does not count");

        counters.allocate("rcv-channel: aeron:udp", ReceiveChannelStatus.RECEIVE_CHANNEL_STATUS_TYPE_ID);
        assertTrue(strategy.hasUdpChannels(), "found past a freed record");
        counters.free(ipc);
    }

    @Test
    void anIdleThreadParksTheLongWayOnlyWithoutChannelsAndWorkResetsBoth()
    {
        final List<String> calls = new ArrayList<>();
        final ChannelAwareIdleStrategy ipcOnlyDriver = new ChannelAwareIdleStrategy(
            recording("configured", calls), recording("ipc-only", calls));
        ipcOnlyDriver.watch(counters);
        ipcOnlyDriver.idle(0);
        ipcOnlyDriver.idle(3);
        assertEquals(List.of("ipc-only idle", "configured reset", "ipc-only reset"), calls);

        calls.clear();
        counters.allocate("snd-channel: aeron:udp", SendChannelStatus.SEND_CHANNEL_STATUS_TYPE_ID);
        final ChannelAwareIdleStrategy udpDriver = new ChannelAwareIdleStrategy(
            recording("configured", calls), recording("ipc-only", calls));
        udpDriver.watch(counters);
        udpDriver.idle(0);
        assertEquals(List.of("configured idle"), calls);
    }

    private static IdleStrategy recording(final String name, final List<String> calls)
    {
        return new IdleStrategy()
        {
            @Override
            public void idle(final int workCount)
            {
                calls.add(name + " idle " + workCount);
            }

            @Override
            public void idle()
            {
                calls.add(name + " idle");
            }

            @Override
            public void reset()
            {
                calls.add(name + " reset");
            }
        };
    }
}
