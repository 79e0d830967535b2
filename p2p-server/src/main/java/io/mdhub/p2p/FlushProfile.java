package io.mdhub.p2p;

import io.mdhub.common.config.ConfigValues;

/**
 * When a fan-out worker flushes what it wrote to its consumers.
 */
public enum FlushProfile
{
    /**
     * Flush each consumer as soon as a message has been fanned out to it (lowest latency; TCP_NODELAY is on).
     */
    LATENCY,

    /**
     * Flush every consumer with pending output once per flush interval: more messages per packed frame and per
     * system call, at the cost of up to one interval of delay.
     */
    THROUGHPUT;

    /**
     * @param value {@code latency} or {@code throughput}, any case.
     * @return the profile.
     * @throws IllegalArgumentException naming the key for any other value.
     */
    public static FlushProfile parse(final String value)
    {
        return ConfigValues.parseEnum(P2pConfiguration.FLUSH_PROFILE_PROP_NAME, FlushProfile.class, value);
    }
}
