package io.mdhub.p2p.entitlement;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps every usage record in memory, as text, for tests.
 */
public final class RecordingUsageLog implements UsageLog
{
    private final List<String> lines = new ArrayList<>();

    @Override
    public synchronized void append(final UsageRecord record)
    {
        lines.add(record.event + " user=" + record.user + " service=" + record.service + " item=" + record.item +
            " codes=" + record.codes + " app=" + record.application + (0 != record.openedMs ? " opened" : "") +
            (null == record.reason ? "" : " reason=" + record.reason));
    }

    /**
     * @return the records so far, one line each.
     */
    public synchronized List<String> lines()
    {
        return new ArrayList<>(lines);
    }

    /**
     * @param prefix the start of a line, e.g. {@code "ITEM_GRANTED user=alice service=DIRECT_FEED item=TRI.N"}.
     * @return how many lines start with it.
     */
    public synchronized long count(final String prefix)
    {
        return lines.stream().filter((line) -> line.startsWith(prefix)).count();
    }

    @Override
    public void close()
    {
    }
}
