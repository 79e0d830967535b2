package io.mdhub.p2p.backbone;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

import io.mdhub.common.rwf.FieldView;

/**
 * A control stream for unit tests: records what it took, one line per message, and answers with scripted results
 * (1, a position, unless told otherwise).
 */
final class RecordingControlSender implements ControlSender
{
    final List<String> sent = new ArrayList<>();
    /** Results of the next calls, in order; then {@link #result}. */
    final ArrayDeque<Long> results = new ArrayDeque<>();
    long result = 1;
    boolean isDown;
    boolean isConnected = true;
    int attempts;

    @Override
    public boolean isDown()
    {
        return isDown;
    }

    @Override
    public boolean isConnected()
    {
        return isConnected;
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // the interface's primitives
    public long requestItem(
        final long requestId,
        final int serviceId,
        final int domainType,
        final boolean isStreaming,
        final boolean isPrivate,
        final DirectBuffer name,
        final int nameOffset,
        final int nameLength,
        final FieldView view)
    {
        final byte[] bytes = new byte[nameLength];
        name.getBytes(nameOffset, bytes);
        return record("request " + Long.toHexString(requestId) + " " + serviceId + " " +
            new String(bytes, StandardCharsets.US_ASCII) + (isPrivate ? " private" : "") +
            (isStreaming ? "" : " snapshot"));
    }

    @Override
    public long closeItem(final long distributorEpoch, final int serviceId, final int itemHandle)
    {
        return record("close " + distributorEpoch + " " + serviceId + " " + itemHandle);
    }

    @Override
    public long requestRecovery(
        final int serviceId, final int itemHandle, final int domainType, final long lastSequence)
    {
        return record("recovery " + serviceId + " " + itemHandle + " " + domainType + " " + lastSequence);
    }

    /**
     * @return the lines that start with the prefix.
     */
    List<String> starting(final String prefix)
    {
        final List<String> lines = new ArrayList<>();
        for (final String line : sent)
        {
            if (line.startsWith(prefix))
            {
                lines.add(line);
            }
        }
        return lines;
    }

    private long record(final String line)
    {
        attempts++;
        final long next = results.isEmpty() ? result : results.poll();
        if (next > 0)
        {
            sent.add(line);
        }
        return next;
    }
}
