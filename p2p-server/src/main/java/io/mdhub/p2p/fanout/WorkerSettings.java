package io.mdhub.p2p.fanout;

import com.refinitiv.eta.codec.DataDictionary;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.SlowConsumerPolicy;
import io.mdhub.p2p.entitlement.ConsumerEntitlements;

/**
 * What every fan-out worker of one server shares: limits, the timed-write interval, counters and the dictionary
 * to serve. The flush profile belongs to each listener (and so to each connection), not to the worker.
 *
 * @param componentName         announced in Login refreshes and used in logs.
 * @param maxItemsPerConsumer   item streams one connection may open.
 * @param maxItems              distinct items open on all workers' sources together.
 * @param maxOutputBytes        pending output that disconnects a consumer.
 * @param slowConsumerTimeoutNs time a consumer may stay unwritable.
 * @param loginTimeoutNs        time from a consumer's handshake to its login request.
 * @param flushIntervalNs       flush interval of throughput-profile connections.
 * @param counters              the server's counters.
 * @param fieldDictionary       loader of the dictionary served to consumers (one instance per worker: ETA's
 *                              dictionary encoder is not shared between threads).
 * @param entitlements          what each consumer may log in as, see, watch and post to; where usage goes.
 * @param postTimeoutNs         time a post waits for its ACK before the poster gets a NAK (NoResponse).
 * @param slowConsumerPolicy    what happens to a consumer whose output passes the guaranteed output.
 * @param conflateTimeoutNs     under the conflate policy, time a consumer may stay unwritable.
 */
@SuppressWarnings("checkstyle:ParameterNumber") // a record of settings
public record WorkerSettings(
    String componentName,
    int maxItemsPerConsumer,
    int maxItems,
    int maxOutputBytes,
    long slowConsumerTimeoutNs,
    long loginTimeoutNs,
    long flushIntervalNs,
    P2pCounters counters,
    java.util.function.Supplier<DataDictionary> fieldDictionary,
    ConsumerEntitlements entitlements,
    long postTimeoutNs,
    SlowConsumerPolicy slowConsumerPolicy,
    long conflateTimeoutNs)
{
}
