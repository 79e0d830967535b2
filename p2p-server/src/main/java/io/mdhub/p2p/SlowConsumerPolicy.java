package io.mdhub.p2p;

import io.mdhub.common.config.ConfigValues;

/**
 * What the p2p-server does with a consumer whose output passes {@code mdhub.p2p.guaranteed.output.bytes} (its
 * connection turns unwritable).
 */
public enum SlowConsumerPolicy
{
    /**
     * Keep queueing every message; disconnect the consumer once its output passes {@code mdhub.p2p.max.output.bytes},
     * stays unwritable, or stops draining, for {@code mdhub.p2p.slow.consumer.timeout}.
     */
    DISCONNECT,

    /**
     * Stop queueing updates while the connection is unwritable and remember which items the consumer missed; when it
     * is writable again, send each such item's latest state from the cache once, as an update with conflation info.
     * A consumer still unwritable after {@code mdhub.p2p.slow.consumer.conflate.timeout} is disconnected.
     */
    CONFLATE;

    /**
     * @param value {@code disconnect} or {@code conflate}, any case.
     * @return the policy.
     * @throws IllegalArgumentException naming the key for any other value.
     */
    public static SlowConsumerPolicy parse(final String value)
    {
        return ConfigValues.parseEnum(P2pConfiguration.SLOW_CONSUMER_POLICY_PROP_NAME, SlowConsumerPolicy.class, value);
    }
}
