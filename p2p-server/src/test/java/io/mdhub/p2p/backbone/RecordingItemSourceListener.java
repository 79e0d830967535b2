package io.mdhub.p2p.backbone;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;

/**
 * Records what an item source tells its worker, one line per call; statuses are decoded
 * ({@code "status <itemId> <domain> <streamState> <dataState> <code> <text>"}).
 */
final class RecordingItemSourceListener implements ItemSourceListener
{
    final List<String> log = new ArrayList<>();
    final List<ServiceInfo> services = new ArrayList<>();
    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();

    @Override
    public void onRefresh(
        final int itemId, final boolean solicited, final DirectBuffer buffer, final int offset, final int length)
    {
        log.add("refresh " + itemId + (solicited ? " solicited" : " unsolicited"));
    }

    @Override
    public void onUpdate(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        log.add("update " + itemId);
    }

    @Override
    public void onStatus(final int itemId, final DirectBuffer buffer, final int offset, final int length)
    {
        if (!msg.wrap(buffer, offset, length) || !msg.hasState())
        {
            log.add("status " + itemId + " undecodable");
            return;
        }
        log.add("status " + itemId + " " + msg.domainType() + " " + msg.streamState() + " " + msg.dataState() + " " +
            msg.stateCode() + " " +
            msg.buffer().getStringWithoutLengthAscii(msg.stateTextOffset(), msg.stateTextLength()));
    }

    @Override
    public void onServiceChanged(final ServiceInfo service)
    {
        services.add(service);
    }

    @Override
    public void onServiceRemoved(final int serviceId)
    {
        log.add("removed " + serviceId);
    }

    /**
     * @return the lines that start with the prefix.
     */
    List<String> starting(final String prefix)
    {
        final List<String> lines = new ArrayList<>();
        for (final String line : log)
        {
            if (line.startsWith(prefix))
            {
                lines.add(line);
            }
        }
        return lines;
    }
}
