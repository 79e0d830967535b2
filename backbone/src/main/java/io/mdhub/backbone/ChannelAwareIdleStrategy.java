package io.mdhub.backbone;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.CountersReader;

import io.aeron.driver.status.ReceiveChannelStatus;
import io.aeron.driver.status.SendChannelStatus;
import io.mdhub.common.concurrent.IdleStrategies;

/**
 * The shared driver thread's back-off, with a longer longest park while the driver has no UDP channel. On a host
 * whose backbone is IPC only the thread's sender and receiver have nothing to do, and its conductor only moves
 * publication limits and answers client commands; every idle wake-up then costs CPU for nothing (about 100 a second
 * at a 10 ms park, about 90 µs each on a small virtual machine). Once a second, while idle, it looks in the driver's
 * counters for send or receive channels: with one it parks as configured, without any up to the IPC park. A busy
 * thread never parks long either way (any work resets the back-off); a client command on an idle IPC-only driver
 * waits up to the IPC park, and a UDP channel opened on it up to a second more before the short park applies.
 */
final class ChannelAwareIdleStrategy implements IdleStrategy
{
    private static final long CHECK_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private final IdleStrategy withChannels;
    private final IdleStrategy ipcOnly;
    private volatile CountersReader counters;
    private boolean hasChannels = true;
    private long nextCheckNs;

    /**
     * @param withChannels the configured back-off, used while a UDP channel is open (and until the counters are
     *                     known).
     * @param ipcOnly      the same back-off with the longer park.
     */
    ChannelAwareIdleStrategy(final IdleStrategy withChannels, final IdleStrategy ipcOnly)
    {
        this.withChannels = withChannels;
        this.ipcOnly = ipcOnly;
    }

    /**
     * @param spec        the configured strategy of the shared thread.
     * @param ipcMaxParkNs the longest park without UDP channels; 0 for none.
     * @param configured  the strategy parsed from spec.
     * @return the configured strategy, wrapped when it is a back-off with a shorter longest park.
     */
    static IdleStrategy wrap(final String spec, final long ipcMaxParkNs, final IdleStrategy configured)
    {
        final IdleStrategy ipcOnly = ipcMaxParkNs > 0 ? IdleStrategies.backoffWithLongerPark(spec, ipcMaxParkNs) : null;
        return null == ipcOnly ? configured : new ChannelAwareIdleStrategy(configured, ipcOnly);
    }

    /**
     * @param counters the driver's counters, once it runs.
     */
    void watch(final CountersReader counters)
    {
        this.counters = counters;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            reset();
            return;
        }
        idle();
    }

    @Override
    public void idle()
    {
        final long nowNs = System.nanoTime();
        if (nowNs - nextCheckNs >= 0)
        {
            nextCheckNs = nowNs + CHECK_INTERVAL_NS;
            hasChannels = hasUdpChannels();
        }
        (hasChannels ? withChannels : ipcOnly).idle();
    }

    @Override
    public void reset()
    {
        withChannels.reset();
        ipcOnly.reset();
    }

    @Override
    public String alias()
    {
        return "channel-aware";
    }

    /**
     * @return whether the driver has a send or receive channel; true until its counters are known.
     */
    boolean hasUdpChannels()
    {
        final CountersReader reader = counters;
        if (null == reader)
        {
            return true;
        }
        // by id, without reading labels (forEach makes a String of each): records are handed out from the lowest
        // id, so the first never-used one ends the scan
        for (int id = 0, max = reader.maxCounterId(); id <= max; id++)
        {
            final int state = reader.getCounterState(id);
            if (CountersReader.RECORD_UNUSED == state)
            {
                break;
            }
            if (CountersReader.RECORD_ALLOCATED == state)
            {
                final int typeId = reader.getCounterTypeId(id);
                if (SendChannelStatus.SEND_CHANNEL_STATUS_TYPE_ID == typeId ||
                    ReceiveChannelStatus.RECEIVE_CHANNEL_STATUS_TYPE_ID == typeId)
                {
                    return true;
                }
            }
        }
        return false;
    }
}
