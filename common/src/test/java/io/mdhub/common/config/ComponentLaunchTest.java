package io.mdhub.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.agrona.LangUtil;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ComponentLaunchTest
{
    static class SampleContext extends BaseContext<SampleContext>
    {
        private RuntimeException concludeFailure;
        private int closeCount;

        SampleContext failConclude(final RuntimeException failure)
        {
            concludeFailure = failure;
            return this;
        }

        @Override
        protected void concludeContext()
        {
            if (null != concludeFailure)
            {
                throw concludeFailure;
            }
        }

        @Override
        public void close()
        {
            closeCount++;
        }
    }

    record Component(SampleContext ctx)
    {
    }

    @Test
    void successReturnsTheComponentAndLeavesTheContextConcludedAndOpen()
    {
        final SampleContext ctx = new SampleContext();
        final Component component = ComponentLaunch.launch(ctx, Component::new);
        assertSame(ctx, component.ctx());
        assertTrue(ctx.isConcluded());
        assertEquals(0, ctx.closeCount);
    }

    @Test
    void concludeFailureClosesTheContextAndRethrowsTheSameException()
    {
        final IllegalArgumentException failure = new IllegalArgumentException("out of range");
        final SampleContext ctx = new SampleContext().failConclude(failure);
        final int[] constructed = new int[1];
        final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> ComponentLaunch.launch(ctx, (c) ->
            {
                constructed[0]++;
                return new Component(c);
            }));
        assertSame(failure, thrown);
        assertEquals(0, constructed[0]);
        assertEquals(1, ctx.closeCount);
    }

    @Test
    void constructorFailureClosesTheContextAndRethrowsTheSameException()
    {
        final IllegalStateException failure = new IllegalStateException("cannot bind");
        final SampleContext ctx = new SampleContext();
        final IllegalStateException thrown = assertThrows(IllegalStateException.class,
            () -> ComponentLaunch.launch(ctx, (c) ->
            {
                throw failure;
            }));
        assertSame(failure, thrown);
        assertTrue(ctx.isConcluded());
        assertEquals(1, ctx.closeCount);
    }

    @Test
    void errorFromTheConstructorClosesTheContextToo()
    {
        final OutOfMemoryError failure = new OutOfMemoryError("direct buffer memory");
        final SampleContext ctx = new SampleContext();
        final OutOfMemoryError thrown = assertThrows(OutOfMemoryError.class,
            () -> ComponentLaunch.launch(ctx, (c) ->
            {
                throw failure;
            }));
        assertSame(failure, thrown);
        assertEquals(1, ctx.closeCount);
    }

    @Test
    void sneakyCheckedExceptionPassesThroughUnchanged()
    {
        final IOException failure = new IOException("Address already in use");
        final SampleContext ctx = new SampleContext();
        final Throwable thrown = assertThrows(Throwable.class,
            () -> ComponentLaunch.launch(ctx, (c) ->
            {
                LangUtil.rethrowUnchecked(failure); // as Netty's bind() throws a BindException
                return new Component(c);
            }));
        assertSame(failure, thrown);
        assertEquals(1, ctx.closeCount);
    }

    @Test
    void failureOfCloseDoesNotHideTheLaunchFailure()
    {
        final IllegalStateException failure = new IllegalStateException("cannot bind");
        final SampleContext ctx = new SampleContext()
        {
            @Override
            public void close()
            {
                throw new IllegalStateException("half-concluded close failed");
            }
        };
        final IllegalStateException thrown = assertThrows(IllegalStateException.class,
            () -> ComponentLaunch.launch(ctx, (c) ->
            {
                throw failure;
            }));
        assertSame(failure, thrown);
    }
}
