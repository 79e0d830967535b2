package io.mdhub.p2p.backbone;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(10)
class ItemStatusesTest
{
    private final RecordingItemSourceListener listener = new RecordingItemSourceListener();
    private final ItemStatuses statuses = new ItemStatuses(listener);

    @Test
    void everyStatusCarriesTheItemsOwnDomain()
    {
        final OpenItem byOrder = item(4, DomainTypes.MARKET_BY_ORDER);
        final OpenItem price = item(5, DomainTypes.MARKET_PRICE);

        statuses.suspect(byOrder, "gap on the backbone: recovering");
        statuses.notFound(price, "item not found");
        statuses.lostPrivate(byOrder);

        assertEquals(List.of(
            "status 4 " + DomainTypes.MARKET_BY_ORDER + " " + StreamStates.OPEN + " " + DataStates.SUSPECT + " " +
                StateCodes.NONE + " gap on the backbone: recovering",
            "status 5 " + DomainTypes.MARKET_PRICE + " " + StreamStates.CLOSED + " " + DataStates.SUSPECT + " " +
                StateCodes.NOT_FOUND + " item not found",
            "status 4 " + DomainTypes.MARKET_BY_ORDER + " " + StreamStates.CLOSED_RECOVER + " " +
                DataStates.SUSPECT + " " + StateCodes.NONE + " private stream lost upstream: open it again"),
            listener.log);
    }

    static OpenItem item(final int itemId, final int domainType)
    {
        final byte[] name = ("ITEM" + itemId).getBytes(StandardCharsets.US_ASCII);
        return new OpenItem(itemId, domainType, 7, new UnsafeBuffer(name));
    }
}
