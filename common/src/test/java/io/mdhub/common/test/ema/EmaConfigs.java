package io.mdhub.common.test.ema;

import java.util.concurrent.atomic.AtomicReference;

import com.refinitiv.ema.access.ElementList;
import com.refinitiv.ema.access.EmaFactory;
import com.refinitiv.ema.access.Map;
import com.refinitiv.ema.access.MapEntry;

/**
 * What the EMA test applications share: the programmatic configuration of one RSSL_SOCKET channel, and a bounded
 * uninitialise.
 */
final class EmaConfigs
{
    private EmaConfigs()
    {
    }

    /**
     * A {@code ChannelGroup} with one RSSL_SOCKET channel, every other channel setting EMA's default.
     *
     * @param channelName the channel's name in the configuration.
     * @param host        the server's address.
     * @param port        the server's port.
     * @return the group's ElementList.
     */
    static ElementList socketChannelGroup(final String channelName, final String host, final int port)
    {
        final ElementList channel = EmaFactory.createElementList();
        channel.add(EmaFactory.createElementEntry().ascii("ChannelType", "ChannelType::RSSL_SOCKET"));
        channel.add(EmaFactory.createElementEntry().ascii("Host", host));
        channel.add(EmaFactory.createElementEntry().ascii("Port", Integer.toString(port)));
        final Map channels = EmaFactory.createMap();
        channels.add(EmaFactory.createMapEntry().keyAscii(channelName, MapEntry.MapAction.ADD, channel));
        final ElementList group = EmaFactory.createElementList();
        group.add(EmaFactory.createElementEntry().map("ChannelList", channels));
        return group;
    }

    /**
     * Run an EMA {@code uninitialize()} on its own thread and wait a bounded time for it, so a stuck EMA fails the
     * test's cleanup (an IllegalStateException, which {@code CloseHelper.closeAll} collects) instead of hanging the
     * build.
     *
     * @param what         what is uninitialised, for the failure message.
     * @param uninitialize the call.
     * @param timeoutMs    how long to wait.
     */
    static void uninitialize(final String what, final Runnable uninitialize, final long timeoutMs)
    {
        final AtomicReference<RuntimeException> failure = new AtomicReference<>();
        final Thread thread = new Thread(
            () ->
            {
                try
                {
                    uninitialize.run();
                }
                catch (final RuntimeException ex)
                {
                    failure.set(ex);
                }
            },
            "ema-uninitialize");
        thread.setDaemon(true);
        thread.start();
        boolean interrupted = false;
        final long deadlineMs = System.currentTimeMillis() + timeoutMs;
        while (thread.isAlive() && System.currentTimeMillis() < deadlineMs)
        {
            try
            {
                thread.join(Math.max(1, deadlineMs - System.currentTimeMillis()));
            }
            catch (final InterruptedException ex)
            {
                interrupted = true; // finish the cleanup even past the test's deadline, then pass the interrupt on
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive())
        {
            throw new IllegalStateException(
                "EMA's " + what + ".uninitialize() did not return within " + timeoutMs + " ms");
        }
        if (null != failure.get())
        {
            throw new IllegalStateException(
                "EMA's " + what + ".uninitialize() failed: " + failure.get(), failure.get());
        }
    }
}
