package io.mdhub.common.order.client;

/**
 * What the order client counted: plain fields written by the client's classes on its thread, read through the
 * getters (which {@link OrderClient}'s public getters return). Not thread safe: the client's thread.
 */
final class OrderClientCounters
{
    long submitted;
    long sends;
    long resends;
    long acks;
    long duplicateAcks;
    long finalRejects;
    long retryableRejects;
    long ackTimeouts;
    long serverLosses;
    long hellosSent;
    long mapsReceived;
    long staleAnswers;
    long foreignAnswers;
    long malformedMessages;

    /**
     * @return orders taken by a submit.
     */
    long submittedCount()
    {
        return submitted;
    }

    /**
     * @return SubmitOrder messages sent, resends included.
     */
    long sendCount()
    {
        return sends;
    }

    /**
     * @return SubmitOrder messages sent again for an order sent before.
     */
    long resendCount()
    {
        return resends;
    }

    /**
     * @return orders acknowledged.
     */
    long ackCount()
    {
        return acks;
    }

    /**
     * @return acknowledgements flagged duplicate (the order was stored before a resend).
     */
    long duplicateAckCount()
    {
        return duplicateAcks;
    }

    /**
     * @return orders finally rejected.
     */
    long rejectCount()
    {
        return finalRejects;
    }

    /**
     * @return NOT_PRIMARY, UNAVAILABLE and UNKNOWN_CLIENT rejects (the order was routed again).
     */
    long retryableRejectCount()
    {
        return retryableRejects;
    }

    /**
     * @return orders sent again because their answer did not come within the ack timeout.
     */
    long ackTimeoutCount()
    {
        return ackTimeouts;
    }

    /**
     * @return times a server was lost, counted once per loss: a server lost again is counted again only after it
     * has sent a partition map since.
     */
    long serverLossCount()
    {
        return serverLosses;
    }

    /**
     * @return ClientHello messages sent.
     */
    long helloCount()
    {
        return hellosSent;
    }

    /**
     * @return PartitionMaps received and applied.
     */
    long mapCount()
    {
        return mapsReceived;
    }

    /**
     * @return answers for orders no longer in flight, or retryable rejects of an earlier send (ignored).
     */
    long staleAnswerCount()
    {
        return staleAnswers;
    }

    /**
     * @return answers for other clients on the same response stream (ignored).
     */
    long foreignAnswerCount()
    {
        return foreignAnswers;
    }

    /**
     * @return malformed or unknown messages skipped, and maps refused (bad server id, changed partition count).
     */
    long malformedCount()
    {
        return malformedMessages;
    }
}
