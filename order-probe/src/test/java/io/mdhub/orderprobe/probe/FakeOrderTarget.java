package io.mdhub.orderprobe.probe;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;

/**
 * A target that acknowledges every order at once, except those whose id is a multiple of {@code fail.every}, and
 * remembers what it was asked: which orders each client submitted, how many sessions are open, whether it was closed
 * after them.
 */
final class FakeOrderTarget implements OrderTarget
{
    static final String NAME = "fake";

    final long failEvery;
    final Set<String> submitted = ConcurrentHashMap.newKeySet();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger openSessions = new AtomicInteger();
    final AtomicInteger sessions = new AtomicInteger();
    volatile boolean isClosed;
    volatile int openSessionsAtClose = -1;

    FakeOrderTarget(final long failEvery)
    {
        this.failEvery = failEvery;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Session connect(final int publisher, final long clientId)
    {
        sessions.incrementAndGet();
        openSessions.incrementAndGet();
        return new Session()
        {
            private int polls;

            @Override
            public boolean isReady()
            {
                return polls > 2; // ready after a few polls, as a client waiting for its maps
            }

            @Override
            public int poll()
            {
                polls++;
                return 0;
            }

            @Override
            public void submit(final long orderId, final DirectBuffer fix, final int offset, final int length)
            {
                if (!submitted.add(clientId + "/" + orderId))
                {
                    duplicates.incrementAndGet();
                }
                if (length <= 0 || fix.getByte(offset) != '8')
                {
                    throw new IllegalStateException("not a FIX message");
                }
                if (0 == orderId % failEvery)
                {
                    throw new OrderFailedException("order " + orderId + " refused by the fake", null);
                }
            }

            @Override
            public void close()
            {
                openSessions.decrementAndGet();
            }
        };
    }

    @Override
    public void close()
    {
        openSessionsAtClose = openSessions.get();
        isClosed = true;
    }

    /**
     * Found by {@link OrderTargets} through this module's test services file.
     */
    public static final class Factory implements OrderTarget.Factory
    {
        @Override
        public String name()
        {
            return NAME;
        }

        @Override
        public OrderTarget create(final Map<String, String> options)
        {
            final String failEvery = options.get("fail.every");
            if (null == failEvery)
            {
                throw new IllegalArgumentException("the fake target needs fail.every");
            }
            return new FakeOrderTarget(Long.parseLong(failEvery));
        }
    }
}
