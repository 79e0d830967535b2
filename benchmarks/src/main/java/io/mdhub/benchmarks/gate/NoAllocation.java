package io.mdhub.benchmarks.gate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a JMH benchmark whose path must not allocate: the regression gate fails when its
 * {@code gc.alloc.rate.norm} reaches {@link #MAX_BYTES_PER_OP} bytes per operation.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface NoAllocation
{
    /** Bytes per operation from which a path counts as allocating (JMH's own noise stays far below). */
    double MAX_BYTES_PER_OP = 1.0;
}
