package io.mdhub.common.status;

/**
 * The shape of every "why" enum whose constants key counters and log lines (why a connection was closed, why a
 * request was refused): the counter key is the constant's ordinal and its label the lower-case name with '-' for
 * '_' ({@code SLOW_CONSUMER} counts as code 0, label {@code slow-consumer}). Counter keys outlive a release in
 * dashboards and scraped series, so such an enum is append only: new constants go at the end, none is removed or
 * reordered. Implemented by enums only; the enum provides {@link #ordinal()}, {@link #name()} and
 * {@link #getDeclaringClass()}.
 */
public interface CounterReason
{
    /**
     * @return the enum constant's position, which is its counter key.
     */
    int ordinal();

    /**
     * @return the enum constant's name.
     */
    String name();

    /**
     * @return the enum type.
     */
    Class<?> getDeclaringClass();

    /**
     * @return the counter key.
     */
    default int code()
    {
        return ordinal();
    }

    /**
     * @return the label used in counters and logs, computed once per enum type.
     */
    default String label()
    {
        return CounterReasons.label(this);
    }
}
