package io.mdhub.common.config;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Base of every component Context, after Aeron's {@code CommonContext}: fields start from system properties (read
 * only in a {@code *Configuration} class), setters are fluent, and {@link #conclude()} validates and builds the
 * dependent resources exactly once. A second conclude throws, so one concluded Context is never shared by two
 * components: derive new ones with {@link #clone()}.
 *
 * @param <T> the concrete Context type, so fluent setters return it.
 */
public abstract class BaseContext<T extends BaseContext<T>> implements AutoCloseable, Cloneable
{
    private static final VarHandle IS_CONCLUDED;

    static
    {
        try
        {
            IS_CONCLUDED = MethodHandles.lookup().findVarHandle(BaseContext.class, "isConcluded", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // accessed through IS_CONCLUDED
    private volatile boolean isConcluded;

    /**
     * Validate the settings and create what depends on them. May be called once.
     *
     * @return this, concluded.
     * @throws IllegalStateException    if the Context was concluded before.
     * @throws IllegalArgumentException if a setting is out of range or inconsistent with another.
     */
    public final T conclude()
    {
        if (!IS_CONCLUDED.compareAndSet(this, false, true))
        {
            throw new IllegalStateException(getClass().getName() + " is already concluded");
        }
        concludeContext();
        return self();
    }

    /**
     * @return true once {@link #conclude()} has run.
     */
    public final boolean isConcluded()
    {
        return isConcluded;
    }

    /**
     * Validate settings and build dependent resources, in a fixed order. Subclasses call {@code super} first.
     */
    protected abstract void concludeContext();

    /**
     * Throw if the Context is already concluded: setters of settings that conclude() consumes call this.
     */
    protected final void checkNotConcluded()
    {
        if (isConcluded)
        {
            throw new IllegalStateException("cannot change a concluded " + getClass().getSimpleName());
        }
    }

    /**
     * A copy with the same settings that is not concluded and owns none of this Context's resources.
     *
     * @return the copy.
     */
    @Override
    @SuppressWarnings("unchecked")
    public T clone()
    {
        try
        {
            final BaseContext<T> copy = (BaseContext<T>)super.clone();
            IS_CONCLUDED.setVolatile(copy, false);
            return (T)copy;
        }
        catch (final CloneNotSupportedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Release what {@link #conclude()} created, in reverse order. The default owns nothing.
     */
    @Override
    public void close()
    {
    }

    /**
     * Guard for a positive setting.
     *
     * @param name  property name, for the message.
     * @param value the value.
     * @return the value.
     */
    protected static long requirePositive(final String name, final long value)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
        return value;
    }

    /**
     * Guard for a setting within an inclusive range.
     *
     * @param name  property name, for the message.
     * @param value the value.
     * @param min   smallest allowed.
     * @param max   largest allowed.
     * @return the value.
     */
    protected static long requireRange(final String name, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new IllegalArgumentException(name + " must be in [" + min + ", " + max + "]: " + value);
        }
        return value;
    }

    /**
     * @return this Context as its own type, for fluent setters declared in a generic settings base.
     */
    @SuppressWarnings("unchecked")
    protected final T self()
    {
        return (T)this;
    }
}
