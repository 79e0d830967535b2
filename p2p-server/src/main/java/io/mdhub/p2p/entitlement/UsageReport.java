package io.mdhub.p2p.entitlement;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The figures of a usage report, drawn from records in log order: per user and per permission code (exchange),
 * over a window [from, to). A record counts when its time is in the window. Watch time is the sum of each item
 * stream's ITEM_GRANTED to ITEM_CLOSED time, clipped to the window; a stream ends at its ITEM_CLOSED, at its
 * connection's LOGOFF, at a LOG_CLOSED, or — when a LOG_OPENED shows its process ended without closing it — at the
 * last record before that LOG_OPENED. A stream still open at {@link #finish(long)} counts up to then and is counted
 * as open. An ITEM_CLOSED whose grant was never read (granted before the first record read) counts from its
 * {@code openedMs}. Distinct items and users are those of grants in the window.
 */
public final class UsageReport
{
    /** Name of the user or code row for records that have none. */
    public static final String NONE = "(none)";

    /**
     * One user's figures.
     */
    public static final class UserFigures
    {
        final String user;
        long loginsGranted;
        long loginsDenied;
        long itemsGranted;
        long itemsDenied;
        long postsDenied;
        long watchMs;
        long open;
        final Set<String> items = new HashSet<>();

        UserFigures(final String user)
        {
            this.user = user;
        }
    }

    /**
     * One permission code's figures.
     */
    public static final class CodeFigures
    {
        final String code;
        long grants;
        long watchMs;
        long open;
        final Set<String> users = new HashSet<>();
        final Set<String> items = new HashSet<>();

        CodeFigures(final String code)
        {
            this.code = code;
        }
    }

    private static final class OpenStream
    {
        final long connectionId;
        final long grantedMs;
        final String user;
        final String codes;

        OpenStream(final long connectionId, final long grantedMs, final String user, final String codes)
        {
            this.connectionId = connectionId;
            this.grantedMs = grantedMs;
            this.user = user;
            this.codes = codes;
        }
    }

    private final long fromMs;
    private final long toMs;
    private final TreeMap<String, UserFigures> users = new TreeMap<>();
    private final TreeMap<String, CodeFigures> codes = new TreeMap<>(UsageReport::compareCodes);
    private final Map<String, ArrayDeque<OpenStream>> open = new HashMap<>();
    private long firstTimeMs = Long.MAX_VALUE;
    private long lastTimeMs = Long.MIN_VALUE;
    private long records;
    private long counted;
    private long unknownEvents;
    private long endedByRestart;
    private long endMs;
    private final UserFigures scratch = new UserFigures(NONE); // takes the counts of records outside the window

    /**
     * @param fromMs start of the window, inclusive (Long.MIN_VALUE for none).
     * @param toMs   end of the window, exclusive (Long.MAX_VALUE for none).
     */
    public UsageReport(final long fromMs, final long toMs)
    {
        this.fromMs = fromMs;
        this.toMs = toMs;
    }

    /**
     * Take the next record in log order.
     *
     * @param record a record (read during the call only).
     */
    public void accept(final UsageRecord record)
    {
        records++;
        if (null == record.event)
        {
            unknownEvents++;
            return;
        }
        final long timeMs = record.timeMs;
        if (timeMs >= toMs)
        {
            return; // nothing at or after the window's end ends a stream: what is open then counts as open
        }
        final boolean isInWindow = timeMs >= fromMs;
        counted += isInWindow ? 1 : 0;
        switch (record.event)
        {
            case LOGIN_GRANTED -> userFigures(record.user, isInWindow).loginsGranted++;
            case LOGIN_DENIED -> userFigures(record.user, isInWindow).loginsDenied++;
            case ITEM_DENIED -> userFigures(record.user, isInWindow).itemsDenied++;
            case POST_DENIED -> userFigures(record.user, isInWindow).postsDenied++;
            case ITEM_GRANTED -> onGranted(record, isInWindow);
            case ITEM_CLOSED -> onClosed(record);
            case LOGOFF -> endConnection(record.connectionId, timeMs);
            case LOG_CLOSED -> endAll(timeMs, false);
            case LOG_OPENED ->
            {
                if (Long.MIN_VALUE != lastTimeMs)
                {
                    endAll(lastTimeMs, true);
                }
            }
            default ->
            {
            }
        }
        firstTimeMs = Math.min(firstTimeMs, timeMs);
        lastTimeMs = Math.max(lastTimeMs, timeMs);
    }

    private UserFigures userFigures(final String user, final boolean isInWindow)
    {
        return isInWindow ? userFigures(user) : scratch;
    }

    private UserFigures userFigures(final String user)
    {
        return users.computeIfAbsent(null == user ? NONE : user, UserFigures::new);
    }

    private static String streamKey(final UsageRecord record)
    {
        return record.connectionId + "\u0000" + itemKey(record);
    }

    private static String itemKey(final UsageRecord record)
    {
        return record.service + "\u0000" + record.domainType + "\u0000" + record.item;
    }

    private void onGranted(final UsageRecord record, final boolean isInWindow)
    {
        open.computeIfAbsent(streamKey(record), (key) -> new ArrayDeque<>())
            .addLast(new OpenStream(record.connectionId, record.timeMs, record.user, record.codes));
        if (isInWindow)
        {
            final String item = itemKey(record);
            final UserFigures user = userFigures(record.user);
            user.itemsGranted++;
            user.items.add(item);
            for (final String code : codes(record.codes))
            {
                final CodeFigures figures = codeFigures(code);
                figures.grants++;
                figures.users.add(user.user);
                figures.items.add(item);
            }
        }
    }

    private void onClosed(final UsageRecord record)
    {
        final String key = streamKey(record);
        final ArrayDeque<OpenStream> streams = open.get(key);
        OpenStream stream = null;
        if (null != streams)
        {
            // the grant this close belongs to: the one it names, else the oldest
            for (final OpenStream candidate : streams)
            {
                if (candidate.grantedMs == record.openedMs)
                {
                    stream = candidate;
                    break;
                }
            }
            stream = null == stream ? streams.peekFirst() : stream;
            streams.remove(stream);
            if (streams.isEmpty())
            {
                open.remove(key);
            }
        }
        if (null != stream)
        {
            watch(stream.user, null != record.codes ? record.codes : stream.codes, stream.grantedMs, record.timeMs,
                false);
        }
        else if (0 != record.openedMs && record.openedMs < firstTimeMs)
        {
            // granted before the first record read; a grant read and ended already (logoff, restart) is not counted
            watch(record.user, record.codes, record.openedMs, record.timeMs, false);
        }
    }

    private void endConnection(final long connectionId, final long timeMs)
    {
        final Iterator<Map.Entry<String, ArrayDeque<OpenStream>>> entries = open.entrySet().iterator();
        while (entries.hasNext())
        {
            final ArrayDeque<OpenStream> streams = entries.next().getValue();
            if (streams.peekFirst().connectionId == connectionId)
            {
                for (final OpenStream stream : streams)
                {
                    watch(stream.user, stream.codes, stream.grantedMs, timeMs, false);
                }
                entries.remove();
            }
        }
    }

    private void endAll(final long timeMs, final boolean isRestart)
    {
        for (final ArrayDeque<OpenStream> streams : open.values())
        {
            for (final OpenStream stream : streams)
            {
                watch(stream.user, stream.codes, stream.grantedMs, timeMs, false);
                endedByRestart += isRestart ? 1 : 0;
            }
        }
        open.clear();
    }

    private void watch(
        final String user, final String codes, final long startMs, final long endMs, final boolean isOpen)
    {
        final long durationMs = Math.min(endMs, toMs) - Math.max(startMs, fromMs);
        if (durationMs < 0 || (0 == durationMs && !isOpen))
        {
            return;
        }
        final UserFigures userFigures = userFigures(user);
        userFigures.watchMs += durationMs;
        userFigures.open += isOpen ? 1 : 0;
        for (final String code : codes(codes))
        {
            final CodeFigures figures = codeFigures(code);
            figures.watchMs += durationMs;
            figures.open += isOpen ? 1 : 0;
        }
    }

    /**
     * End the report: streams still open count up to a time (the window's end, or now) and are counted as open.
     *
     * @param endMs when the open streams stop counting (clipped to the window).
     * @return this.
     */
    public UsageReport finish(final long endMs)
    {
        this.endMs = Math.min(endMs, toMs);
        for (final ArrayDeque<OpenStream> streams : open.values())
        {
            for (final OpenStream stream : streams)
            {
                watch(stream.user, stream.codes, stream.grantedMs, this.endMs, true);
            }
        }
        open.clear();
        return this;
    }

    private CodeFigures codeFigures(final String code)
    {
        return codes.computeIfAbsent(code, CodeFigures::new);
    }

    private static String[] codes(final String codes)
    {
        if (null == codes || codes.isBlank())
        {
            return new String[] {NONE};
        }
        final String[] split = codes.split(",");
        for (int i = 0; i < split.length; i++)
        {
            split[i] = split[i].trim();
        }
        return split;
    }

    private static int compareCodes(final String a, final String b)
    {
        final boolean isNumberA = isNumber(a);
        final boolean isNumberB = isNumber(b);
        if (isNumberA && isNumberB)
        {
            return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
        }
        return isNumberA ? -1 : isNumberB ? 1 : a.compareTo(b);
    }

    private static boolean isNumber(final String text)
    {
        return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
    }

    /**
     * @return per user, by name.
     */
    public Iterable<UserFigures> users()
    {
        return users.values();
    }

    /**
     * @return per permission code, numerically.
     */
    public Iterable<CodeFigures> codes()
    {
        return codes.values();
    }

    /**
     * @param user a user name.
     * @return its figures, or null if the report has none.
     */
    public UserFigures user(final String user)
    {
        return users.get(user);
    }

    /**
     * @param code a permission code.
     * @return its figures, or null if the report has none.
     */
    public CodeFigures code(final String code)
    {
        return codes.get(code);
    }

    /**
     * @return records taken, in the window or not.
     */
    public long records()
    {
        return records;
    }

    /**
     * @return records whose time is in the window.
     */
    public long recordsInWindow()
    {
        return counted;
    }

    /**
     * @return records of an event this version does not know (written by a later version; skipped).
     */
    public long unknownEvents()
    {
        return unknownEvents;
    }

    /**
     * @return streams ended by a restart without close records (counted up to the last record before it).
     */
    public long endedByRestart()
    {
        return endedByRestart;
    }

    /**
     * @return the window's start (Long.MIN_VALUE for none).
     */
    public long fromMs()
    {
        return fromMs;
    }

    /**
     * @return the window's end (Long.MAX_VALUE for none).
     */
    public long toMs()
    {
        return toMs;
    }

    /**
     * @return when open streams stopped counting, after {@link #finish(long)}.
     */
    public long endMs()
    {
        return endMs;
    }
}
