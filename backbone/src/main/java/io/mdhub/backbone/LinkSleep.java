package io.mdhub.backbone;

import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.mdhub.common.concurrent.DoorbellSleep;
import io.mdhub.common.concurrent.EventLoopDoorbell;
import io.mdhub.common.concurrent.EventLoopDutyCycle;
import io.netty.channel.EventLoop;

/**
 * The sleep of a backbone loop that wakes on data, kept across a lost backbone: it passes to the {@link DoorbellSleep}
 * of the current subscription and doorbell, which are made again on each new Aeron client. While the backbone is down
 * there is nothing to poll and nothing to be rung for, so the loop may block until its tick or its sockets wake it
 * (the tick looks for the driver); the dead doorbell is never touched again (its counter lived in the lost client's
 * memory). Used on the loop's thread, except the doorbell handed over by {@link #openDoorbell}.
 */
public final class LinkSleep implements EventLoopDutyCycle.Sleep
{
    private static final Logger LOG = LoggerFactory.getLogger(LinkSleep.class);

    private volatile DoorbellSleep delegate;

    /**
     * @param delegate the sleep on the first client's subscription.
     */
    public LinkSleep(final DoorbellSleep delegate)
    {
        this.delegate = delegate;
    }

    /**
     * @param delegate the sleep on the current client's subscription, or null while the backbone is down.
     */
    public void delegate(final DoorbellSleep delegate)
    {
        this.delegate = delegate;
    }

    @Override
    public boolean mayBlock()
    {
        final DoorbellSleep sleep = delegate;
        return null == sleep || sleep.mayBlock();
    }

    @Override
    public void asleep()
    {
        final DoorbellSleep sleep = delegate;
        if (null != sleep)
        {
            sleep.asleep();
        }
    }

    @Override
    public void awake()
    {
        final DoorbellSleep sleep = delegate;
        if (null != sleep)
        {
            sleep.awake();
        }
    }

    /**
     * Open a doorbell on a new client for a loop, from a thread of its own ({@link EventLoopDoorbell#open} waits for
     * the bind on the loop, so the loop cannot open it itself), and hand it to the loop. Until it is handed over the
     * loop polls on its timers; a doorbell that fails to open leaves it so (logged).
     *
     * @param aeron    the new client.
     * @param name     who sleeps.
     * @param loop     the loop.
     * @param onRing   the loop's duty cycle.
     * @param streamId the IPC stream the loop polls.
     * @param onOpen   run on the loop with the open doorbell: it takes it, or closes it if the client is gone again.
     */
    public static void openDoorbell(
        final Aeron aeron,
        final String name,
        final EventLoop loop,
        final Runnable onRing,
        final int streamId,
        final Consumer<EventLoopDoorbell> onOpen)
    {
        final Thread opener = new Thread(() ->
        {
            try
            {
                final EventLoopDoorbell doorbell = EventLoopDoorbell.open(aeron, name, loop, onRing, streamId);
                try
                {
                    loop.execute(() -> onOpen.accept(doorbell));
                }
                catch (final RuntimeException ex)
                {
                    CloseHelper.quietClose(doorbell); // the loop is shutting down
                }
            }
            catch (final RuntimeException ex)
            {
                LOG.warn("doorbell {} not opened on the new backbone client: the loop polls on its timers", name, ex);
            }
        }, "mdhub-doorbell-opener");
        opener.setDaemon(true);
        opener.start();
    }
}
