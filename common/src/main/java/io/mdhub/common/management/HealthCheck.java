package io.mdhub.common.management;

/**
 * One thing a server checks about itself when asked (never on a timer), on the management thread: it reads state
 * that other threads publish, or asks an event loop and waits a bounded time.
 */
@FunctionalInterface
public interface HealthCheck
{
    /**
     * @return what the check found.
     * @throws Exception when it could not tell: reported as down with the exception's message.
     */
    HealthStatus check() throws Exception;
}
