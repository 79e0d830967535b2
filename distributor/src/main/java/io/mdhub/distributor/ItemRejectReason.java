package io.mdhub.distributor;

import com.refinitiv.eta.codec.StateCodes;
import io.mdhub.common.status.CounterReason;

/**
 * Why an item stream from a provider was refused with a StatusMsg Closed/Suspect on that stream. Each has its own
 * counter; the provider connection stays up.
 */
public enum ItemRejectReason implements CounterReason
{
    /** The key names a service the provider did not announce in its directory. */
    UNKNOWN_SERVICE(StateCodes.SOURCE_UNKNOWN,
        "service not in this provider's directory: announce it in a directory refresh first"),
    /** The service already caches its maximum number of items. */
    TOO_MANY_ITEMS(StateCodes.TOO_MANY_ITEMS,
        "service item limit reached (mdhub.distributor.max.items.per.service)"),
    /** A new item stream whose first message is not a refresh with serviceId and name in its key. */
    BAD_KEY(StateCodes.USAGE_ERROR,
        "a new item stream must start with a refresh whose key holds serviceId and name");

    private final int stateCode;
    private final String text;

    ItemRejectReason(final int stateCode, final String text)
    {
        this.stateCode = stateCode;
        this.text = text;
    }

    /**
     * @return the StateCodes value sent to the provider.
     */
    public int stateCode()
    {
        return stateCode;
    }

    /**
     * @return the state text sent to the provider.
     */
    public String text()
    {
        return text;
    }
}
