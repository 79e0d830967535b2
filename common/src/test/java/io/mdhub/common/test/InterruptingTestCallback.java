package io.mdhub.common.test;

import java.lang.reflect.AnnotatedElement;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Interrupts the test thread when the {@link InterruptAfter} deadline of the method (or its class) passes. Waits in
 * {@link MdTests} check the interrupt flag, so a stuck test fails with a message instead of hanging the build.
 * Disabled while a debugger is attached.
 */
public final class InterruptingTestCallback implements BeforeTestExecutionCallback, AfterTestExecutionCallback
{
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(
        (r) ->
        {
            final Thread thread = new Thread(r, "test-deadline");
            thread.setDaemon(true);
            return thread;
        });
    private static final boolean DEBUGGING = java.lang.management.ManagementFactory.getRuntimeMXBean()
        .getInputArguments().toString().contains("-agentlib:jdwp");

    private ScheduledFuture<?> pending;

    @Override
    public void beforeTestExecution(final ExtensionContext context)
    {
        final InterruptAfter deadline = find(context);
        if (null == deadline || DEBUGGING)
        {
            return;
        }

        final Thread testThread = Thread.currentThread();
        pending = TIMER.schedule(testThread::interrupt, deadline.value(), deadline.unit());
    }

    @Override
    public void afterTestExecution(final ExtensionContext context)
    {
        if (null != pending)
        {
            pending.cancel(false);
            pending = null;
        }
        Thread.interrupted(); // do not leak a late interrupt into the next test
    }

    private static InterruptAfter find(final ExtensionContext context)
    {
        final InterruptAfter onMethod = annotation(context.getRequiredTestMethod());
        return null != onMethod ? onMethod : annotation(context.getRequiredTestClass());
    }

    private static InterruptAfter annotation(final AnnotatedElement element)
    {
        return element.getAnnotation(InterruptAfter.class);
    }
}
