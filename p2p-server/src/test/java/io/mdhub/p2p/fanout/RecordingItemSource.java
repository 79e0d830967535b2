package io.mdhub.p2p.fanout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.mdhub.common.rwf.FieldView;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ItemSourceFactory;
import io.mdhub.p2p.source.ItemSourceListener;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.channel.EventLoop;
import org.agrona.DirectBuffer;

/**
 * An item source that answers nothing by itself: it records what the worker asks of it, one line per call
 * ({@code "open 0 6/1/TRI.N streaming"}, {@code "refresh 0"}, {@code "close 0"}...), and hands the test the worker's
 * listener to play the upstream side. Its services are the test's to set.
 */
final class RecordingItemSource implements ItemSource, ItemSourceFactory
{
    private final List<String> calls = new ArrayList<>();
    private final List<ServiceInfo> services = new ArrayList<>();
    private ItemSourceListener listener;
    private boolean isServingPrivate;
    private int servicesAsked;

    RecordingItemSource service(final ServiceInfo service)
    {
        services.add(service);
        return this;
    }

    RecordingItemSource servingPrivateStreams(final boolean isServing)
    {
        isServingPrivate = isServing;
        return this;
    }

    @Override
    public ItemSource newItemSource(final int workerIndex, final EventLoop eventLoop, final ItemSourceListener listener)
    {
        this.listener = listener;
        return this;
    }

    ItemSourceListener listener()
    {
        return listener;
    }

    /**
     * @return the calls so far, and forget them.
     */
    List<String> takeCalls()
    {
        final List<String> taken = new ArrayList<>(calls);
        calls.clear();
        return taken;
    }

    /**
     * @return how many times the worker read the services (its directory's load).
     */
    int servicesAsked()
    {
        return servicesAsked;
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber")
    public void open(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final boolean streaming,
        final FieldView view)
    {
        calls.add("open " + itemId + " " + domainType + "/" + serviceId + "/" +
            name.getStringWithoutLengthAscii(nameOffset, nameLength) + (streaming ? " streaming" : " snapshot") +
            (null == view ? "" : " view"));
    }

    @Override
    public boolean openPrivate(
        final int itemId,
        final int domainType,
        final int serviceId,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        calls.add("openPrivate " + itemId + " " + domainType + "/" + serviceId + "/" +
            name.getStringWithoutLengthAscii(nameOffset, nameLength));
        return isServingPrivate;
    }

    @Override
    public void refresh(final int itemId)
    {
        calls.add("refresh " + itemId);
    }

    @Override
    public void widenView(final int itemId, final FieldView view)
    {
        calls.add("widenView " + itemId);
    }

    @Override
    public void close(final int itemId)
    {
        calls.add("close " + itemId);
    }

    @Override
    public List<ServiceInfo> services()
    {
        servicesAsked++;
        return new ArrayList<>(services);
    }

    @Override
    public void close()
    {
        calls.add("closed");
    }

    static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
