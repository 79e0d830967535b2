package io.mdhub.common.config;

import java.util.function.Function;

import org.agrona.CloseHelper;
import org.agrona.LangUtil;

/**
 * The one body of every {@code Component.launch(Context)}: conclude the Context, build the component from it, and on
 * any failure close the Context before the failure goes on. The component owns the Context once built and closes it
 * with itself; until then nobody else would release what a partial {@code conclude()} or a failed constructor left
 * open (counters, event loops, a media driver, files), so this does.
 * <p>
 * It catches {@link Throwable}: Netty's {@code bind()} and Aeron rethrow checked exceptions unchecked
 * ({@code BindException}, {@code NativeIoException}, a directory that cannot be mapped), and an {@link Error} out of
 * the constructor leaves the same resources behind. The failure is rethrown as it was, checked or not.
 */
public final class ComponentLaunch
{
    private ComponentLaunch()
    {
    }

    /**
     * Conclude the Context and build the component from it; on failure close the Context and rethrow.
     *
     * @param ctx         the settings, not concluded before; owned by the component once it is built.
     * @param constructor builds the component from the concluded Context (usually {@code Component::new}).
     * @param <C>         the Context type.
     * @param <R>         the component type.
     * @return the component, with the Context concluded and left open.
     */
    public static <C extends BaseContext<?>, R> R launch(
        final C ctx, final Function<? super C, ? extends R> constructor)
    {
        try
        {
            ctx.conclude();
            return constructor.apply(ctx);
        }
        catch (final Throwable ex)
        {
            CloseHelper.quietClose(ctx);
            LangUtil.rethrowUnchecked(ex);
            return null; // not reached
        }
    }
}
