package io.mdhub.p2p.backbone;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.StateCodes;

import io.mdhub.common.rwf.RwfMsgFlyweight;

/**
 * When a refused item is asked for again, and the items that wait for their provider. A refused item is retried
 * after 1 s, 2 s, 4 s, 8 s, then every 8 s (an item live before until {@code recoveryGraceNs} after its first refusal,
 * the last try at the grace end; an item refused for now for as long as it is wanted), and after 1 s, 2 s, 4 s, 8 s,
 * 16 s, then every 30 s while it waits for its provider (whose broadcast refresh brings it at once: the retries only
 * cover a refresh missed). It only sets the item's retry fields; the caller watches the item and tells its
 * consumers. Owned by the worker's event loop.
 */
final class ItemRetries
{
    /** The first refusal: the item is retried later, and its consumers are to see Open/Suspect. */
    static final int FIRST = 0;
    /** Another refusal: the item is retried later. */
    static final int AGAIN = 1;
    /** The grace period is over: the refusal is to be passed on. */
    static final int GIVE_UP = 2;

    static final long RETRY_INITIAL_NS = 1_000_000_000L;
    static final long RETRY_MAX_NS = 8_000_000_000L;
    static final long WAIT_RETRY_MAX_NS = 30_000_000_000L;
    static final String WAITING_TEXT = "waiting for the provider to publish the item";
    static final String NOT_REPUBLISHED_TEXT = "not republished by its provider yet: waiting";

    private final WaitingItems<OpenItem> waiting = new WaitingItems<>();
    private final RwfMsgFlyweight refusal = new RwfMsgFlyweight();
    private final long recoveryGraceNs;
    private final boolean isItemWait;

    /**
     * @param recoveryGraceNs how long an item live before is retried after its first refusal.
     * @param isItemWait      items their provider has not published wait for it, rather than close.
     */
    ItemRetries(final long recoveryGraceNs, final boolean isItemWait)
    {
        this.recoveryGraceNs = recoveryGraceNs;
        this.isItemWait = isItemWait;
    }

    boolean isItemWait()
    {
        return isItemWait;
    }

    /**
     * Schedule the item's next try ({@code retryAtNs}, {@code isAwaitingRetry}) after the next wait.
     *
     * @param isGraceBounded stop retrying {@code recoveryGraceNs} after the first refusal.
     * @return {@link #FIRST}, {@link #AGAIN}, or {@link #GIVE_UP} (nothing scheduled).
     */
    int retryLater(final OpenItem item, final boolean isGraceBounded, final long nowNs)
    {
        final boolean isFirst = OpenItem.NONE == item.refusedSinceNs;
        if (isFirst)
        {
            item.refusedSinceNs = nowNs;
            item.retryDelayNs = 0;
        }
        final long graceEndNs = item.refusedSinceNs + recoveryGraceNs;
        if (isGraceBounded && nowNs - graceEndNs >= 0)
        {
            return GIVE_UP;
        }
        final long maxDelayNs = item.isWaitingForProvider ? WAIT_RETRY_MAX_NS : RETRY_MAX_NS;
        item.retryDelayNs = 0 == item.retryDelayNs ? RETRY_INITIAL_NS : Math.min(2 * item.retryDelayNs, maxDelayNs);
        item.retryAtNs = nowNs + (isGraceBounded ?
            Math.min(item.retryDelayNs, graceEndNs - nowNs) : item.retryDelayNs); // the last try at the grace end
        item.isAwaitingRetry = true;
        return isFirst ? FIRST : AGAIN;
    }

    /**
     * List the item as waiting for its provider (once).
     *
     * @return the Open/Suspect text its consumers see.
     */
    String waitForProvider(final OpenItem item)
    {
        if (!item.isWaitingForProvider)
        {
            item.isWaitingForProvider = true;
            waiting.add(item.serviceId, item.domainType, item.name, 0, item.name.capacity(), item);
        }
        return item.hadImage ? NOT_REPUBLISHED_TEXT : WAITING_TEXT;
    }

    void stopWaiting(final OpenItem item)
    {
        if (item.isWaitingForProvider)
        {
            item.isWaitingForProvider = false;
            waiting.remove(item.serviceId, item.domainType, item.name, 0, item.name.capacity());
        }
    }

    boolean hasWaiting()
    {
        return !waiting.isEmpty();
    }

    /**
     * @return the item waiting under that name, or null.
     */
    OpenItem waitingFor(
        final int serviceId, final int domainType, final DirectBuffer name, final int offset, final int length)
    {
        return waiting.find(serviceId, domainType, name, offset, length);
    }

    int waitingItems()
    {
        return waiting.size();
    }

    /**
     * @return true if the refusal (a status message) says NOT_FOUND; its text is then {@link #refusalText()}.
     */
    boolean isNotFound(final DirectBuffer buffer, final int rwfOffset, final int rwfLength)
    {
        return refusal.wrap(buffer, rwfOffset, rwfLength) && refusal.hasState() &&
            StateCodes.NOT_FOUND == refusal.stateCode();
    }

    /**
     * @return the text of the refusal {@link #isNotFound} read last, or "item not found".
     */
    String refusalText()
    {
        return refusal.stateTextLength() > 0 ?
            refusal.buffer().getStringWithoutLengthAscii(refusal.stateTextOffset(), refusal.stateTextLength()) :
            "item not found";
    }
}
