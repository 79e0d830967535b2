package io.mdhub.distributor;

import org.agrona.DirectBuffer;

import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlags;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfPrimitives;

/**
 * Reads the QoS of a RefreshMsg the flyweight has validated. A refresh's members come in a fixed order:
 * <pre>
 *  [seqNum] state(u8 u8 buf15 text) groupId(buf8) [permData buf15] [qos: u8 (timeliness &lt;&lt; 5 | rate &lt;&lt; 1 |
 *  dynamic), timeInfo uint16 if timeliness = 3, rateInfo uint16 if rate = 3] [key] ...
 * </pre>
 * so the QoS follows the state text. Every member lies inside the header because wrap succeeded.
 */
final class RefreshQos
{
    private static final int DELAYED = 3;
    private static final int TIME_CONFLATED = 3;

    private RefreshQos()
    {
    }

    static void read(final RwfMsgFlyweight refresh, final CachedItem item)
    {
        item.hasQos = 0 != (refresh.flags() & RwfMsgFlags.Refresh.HAS_QOS);
        if (!item.hasQos)
        {
            return;
        }
        final DirectBuffer buffer = refresh.buffer();
        int position = refresh.stateTextOffset() + refresh.stateTextLength();
        position += 1 + (buffer.getByte(position) & 0xFF);
        if (0 != (refresh.flags() & RwfMsgFlags.Refresh.HAS_PERM_DATA))
        {
            position += RwfPrimitives.u15rbWidth(buffer, position) + RwfPrimitives.u15rb(buffer, position);
        }
        final int qos = buffer.getByte(position) & 0xFF;
        position++;
        item.qosTimeliness = qos >>> 5;
        item.qosRate = (qos >>> 1) & 0x0F;
        item.qosDynamic = 0 != (qos & 1);
        item.qosTimeInfo = 0;
        item.qosRateInfo = 0;
        if (DELAYED == item.qosTimeliness)
        {
            item.qosTimeInfo = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
            position += 2;
        }
        if (TIME_CONFLATED == item.qosRate)
        {
            item.qosRateInfo = buffer.getShort(position, RwfMsgDescriptor.BYTE_ORDER) & 0xFFFF;
        }
    }
}
