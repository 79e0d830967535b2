package io.mdhub.distributor;

/**
 * How the backbone publisher passes its back-pressure upstream: it stops the distributor reading its provider
 * connections while live data waits for the backbone, so the providers' own TCP writes back up instead of data being
 * lost, and lets reading resume once the waiting data went out. Called on the distributor's event loop only; both
 * calls are idempotent and cheap (one flag flip per connection per episode).
 */
public interface ProviderReadControl
{
    /**
     * A control that does nothing (a backbone without providers, tests).
     */
    ProviderReadControl NONE = new ProviderReadControl()
    {
        @Override
        public void pauseReading()
        {
        }

        @Override
        public void resumeReading()
        {
        }
    };

    /**
     * Stop reading every logged-in provider connection (Netty autoRead off). Messages already read and decoded are
     * still delivered: the caller must be able to hold at least one socket read's worth per connection.
     */
    void pauseReading();

    /**
     * Read every provider connection again.
     */
    void resumeReading();
}
