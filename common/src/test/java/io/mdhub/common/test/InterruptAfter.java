package io.mdhub.common.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Deadline for a test method or every method of a class: when it passes, {@link InterruptingTestCallback} interrupts
 * the test thread, and every {@link MdTests} wait turns that interrupt into a failure saying what it waited for.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.METHOD, ElementType.TYPE })
@ExtendWith(InterruptingTestCallback.class)
public @interface InterruptAfter
{
    /**
     * @return how long the test may run.
     */
    long value() default 10;

    /**
     * @return the unit of {@link #value()}.
     */
    TimeUnit unit() default TimeUnit.SECONDS;
}
