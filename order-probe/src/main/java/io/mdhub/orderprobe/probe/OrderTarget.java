package io.mdhub.orderprobe.probe;

import java.util.Map;

import org.agrona.DirectBuffer;

/**
 * What the probe's publishers submit orders to. The probe keeps all it measures to itself: the creation thread and
 * its schedule, the publishing threads, the three timestamps of every order, the pauses and the run directory. A
 * target only gives each publisher a {@link Session} that submits one order at a time and returns once the order is
 * acknowledged. So the same probe measures the MDHub order service ({@link OrderClientTarget}, the default) and the
 * references it is compared with in one {@code bench orders} run: the transport floor of the host, a data grid a
 * user might pick instead.
 * <p>
 * Other targets are found by name on the class path as {@link Factory} services ({@link OrderTargets}), so
 * the probe does not depend on the modules that implement them: the bench jar holds the probe and its references
 * together, and starts the probe from that jar for a reference configuration.
 * <p>
 * <b>Threads.</b> {@link #connect} is called on each publisher's own thread, concurrently, and the session is then
 * used by that thread only. {@link #close()} is called once, after every session is closed.
 */
public interface OrderTarget extends AutoCloseable
{
    /**
     * @return the name the target is selected by; recorded with the run.
     */
    String name();

    /**
     * Open one publisher's session: its connection, client or whatever else a user of the target holds per thread.
     *
     * @param publisher the publisher's index in the probe, 0 up.
     * @param clientId  the publisher's client id, unique among the publishers of all probes of a run.
     * @return the session, not necessarily {@link Session#isReady() ready} yet.
     */
    Session connect(int publisher, long clientId);

    /**
     * Release what the sessions shared.
     */
    @Override
    void close();

    /**
     * One publisher's way to submit orders, used by that publisher's thread only.
     */
    interface Session extends AutoCloseable
    {
        /**
         * @return whether {@link #submit} may be called now (an order client has the servers' partition maps).
         */
        boolean isReady();

        /**
         * Do the background work the session needs while its publisher has nothing to submit: called in a loop
         * until the session is ready, and between orders.
         *
         * @return the work done, 0 for none (an idle strategy backs off on 0).
         */
        int poll();

        /**
         * Submit an order and return once it is acknowledged.
         *
         * @param orderId the order id, unique for this session.
         * @param fix     the order's FIX message.
         * @param offset  where it starts.
         * @param length  its length.
         * @throws OrderFailedException when this order was not acknowledged and the session can go on with the
         *                              next; the MDHub order client throws its own rejected and timed-out
         *                              exceptions, which the probe counts the same way. Any other exception ends
         *                              the publisher.
         */
        void submit(long orderId, DirectBuffer fix, int offset, int length);

        /**
         * Close the connection; never throws.
         */
        @Override
        void close();
    }

    /**
     * Makes a target by name, from the probe's {@code --target-option KEY=VALUE} options. Implementations are
     * listed in {@code META-INF/services/io.mdhub.orderprobe.probe.OrderTarget$Factory} and need a public no-argument
     * constructor.
     */
    interface Factory
    {
        /**
         * @return the name {@code --target} selects it by.
         */
        String name();

        /**
         * @param options the target's options, key to value.
         * @return a target ready to {@link OrderTarget#connect connect} publishers.
         * @throws IllegalArgumentException when an option is missing or wrong.
         */
        OrderTarget create(Map<String, String> options);
    }
}
