package io.mdhub.common.order.client;

/**
 * What the order client counted: plain fields written by the client's classes on its thread and returned by
 * {@link OrderClient}'s public getters. Not thread safe: the client's thread.
 */
final class OrderClientCounters
{
    /** Orders taken by a submit. */
    long submitted;
    /** SubmitOrder messages sent, resends included. */
    long sends;
    /** SubmitOrder messages sent again for an order sent before. */
    long resends;
    /** Orders acknowledged. */
    long acks;
    /** Acknowledgements flagged duplicate (the order was stored before a resend). */
    long duplicateAcks;
    /** Orders finally rejected. */
    long finalRejects;
    /** NOT_PRIMARY, UNAVAILABLE and UNKNOWN_CLIENT rejects (the order was routed again). */
    long retryableRejects;
    /** Orders sent again because their answer did not come within the ack timeout. */
    long ackTimeouts;
    /** Times a server was lost, counted once per loss: a server lost again counts again only after a map since. */
    long serverLosses;
    /** ClientHello messages sent. */
    long hellosSent;
    /** PartitionMaps received and applied. */
    long mapsReceived;
    /** Answers for orders no longer in flight, or retryable rejects of an earlier send (ignored). */
    long staleAnswers;
    /** Answers carrying another client's id (ignored). */
    long foreignAnswers;
    /** Malformed or unknown messages skipped, and maps refused (bad server id, changed partition count). */
    long malformedMessages;
}
