package io.mdhub.common.order.client;

import org.agrona.DirectBuffer;

/**
 * What {@link OrderDispatch} needs of the client's server connections: whether a server can take an order now, the
 * send itself, and a request for fresh maps. {@link ServerLinks} is the implementation over sockets; the interface
 * lets the send path be tested without one. Not thread safe: the client's thread.
 */
interface OrderLinks
{
    /**
     * @param server a server (configuration order).
     * @return true if its connection was open at the last link check.
     */
    boolean isConnected(int server);

    /**
     * @param server a server (configuration order).
     * @return true if a send to it was refused by a full connection since {@link #clearBackPressure()}.
     */
    boolean isBackPressured(int server);

    /**
     * Let every server take orders again: its connection may have been written out since it refused one.
     */
    void clearBackPressure();

    /**
     * Queue an order on a server's connection; a refusal by the full connection marks the server back-pressured.
     *
     * @param server          a server (configuration order).
     * @param orderId         the order.
     * @param partition       the pair's partition.
     * @param sendTimestampNs echoed in the answer.
     * @param fix             the FIX message.
     * @param offset          where it starts.
     * @param length          its length.
     * @return {@link OrderIngressPublisher#SENT}, {@link OrderIngressPublisher#NOT_CONNECTED} or {@link
     * OrderIngressPublisher#BACK_PRESSURED}.
     */
    long sendOrder(int server, long orderId, int partition, long sendTimestampNs, DirectBuffer fix, int offset,
        int length);

    /**
     * Ask both servers of a pair for a fresh map by a hello on the next hello pass.
     *
     * @param pair the pair.
     */
    void askForMaps(int pair);
}
