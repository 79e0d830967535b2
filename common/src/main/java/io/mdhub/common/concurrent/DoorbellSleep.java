package io.mdhub.common.concurrent;

import java.util.function.BooleanSupplier;

import io.aeron.Subscription;

/**
 * How a loop that polls one IPC subscription sleeps on its {@link Doorbell}: it may block with no timer while its
 * doorbell is open, every image of the subscription comes from a publication that rings it
 * ({@link Doorbell#covers}), and its owner has nothing waiting on the clock. The doorbell is opened after the duty
 * cycle that it wakes, so it is given later; until then the loop does not block.
 */
public final class DoorbellSleep implements EventLoopDutyCycle.Sleep
{
    private final Subscription subscription;
    private final BooleanSupplier isNothingTimed;
    private volatile EventLoopDoorbell doorbell; // given from the thread that opened it, read on the loop

    /**
     * @param subscription   the subscription the loop polls.
     * @param isNothingTimed true while nothing of the owner's waits on a timer (a retry, a recovery pass).
     */
    public DoorbellSleep(final Subscription subscription, final BooleanSupplier isNothingTimed)
    {
        this.subscription = subscription;
        this.isNothingTimed = isNothingTimed;
    }

    /**
     * @param doorbell the loop's doorbell, open.
     * @return it.
     */
    public EventLoopDoorbell doorbell(final EventLoopDoorbell doorbell)
    {
        this.doorbell = doorbell;
        return doorbell;
    }

    @Override
    public boolean mayBlock()
    {
        return null != doorbell && isNothingTimed.getAsBoolean() && doorbell.doorbell().covers(subscription);
    }

    @Override
    public void asleep()
    {
        doorbell.doorbell().asleep(); // only after mayBlock() saw it
    }

    @Override
    public void awake()
    {
        if (null != doorbell)
        {
            doorbell.doorbell().awake();
        }
    }
}
