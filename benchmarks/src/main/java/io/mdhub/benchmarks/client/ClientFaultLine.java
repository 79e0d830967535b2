package io.mdhub.benchmarks.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a fault did to the test client, appended to its once-a-second line (after {@code " | "}) so that a tool which
 * breaks the system under it ({@code bin/mdhub chaos md}) can read it back: {@link TestClientMain} prints it, the
 * chaos runner parses it, so its format lives here only. Times are epoch milliseconds taken on the client's event
 * loops as the change happens, not at the once-a-second print.
 *
 * @param skippedSilently updates missing by the per-item counters while their item was not Suspect, so far: a gap no
 *                        Suspect status or refresh announced (must stay 0).
 * @param streamsClosed   item streams the server closed, so far.
 * @param suspectFromMs   when the first item went Suspect (in a mount that had none) since the previous line; 0 when
 *                        none did.
 * @param allOkMs         when the last Suspect item came back Ok, if every item is Ok now; 0 while one is Suspect or
 *                        none ever was.
 */
public record ClientFaultLine(long skippedSilently, long streamsClosed, long suspectFromMs, long allOkMs)
{
    private static final String FORMAT = "faults: skipped %d, closed %d, suspect-from-ms %d, all-ok-ms %d";
    private static final Pattern PATTERN = Pattern.compile(FORMAT.replace("%d", "(\\d+)"));

    /**
     * @return the line's part.
     */
    public String format()
    {
        return String.format(Locale.ROOT, FORMAT, skippedSilently, streamsClosed, suspectFromMs, allOkMs);
    }

    /**
     * @param line one line of the client's output.
     * @return its fault part, or null when it has none.
     */
    public static ClientFaultLine parse(final String line)
    {
        final Matcher matcher = PATTERN.matcher(line);
        return matcher.find() ? of(matcher) : null;
    }

    /**
     * @param output the client's output.
     * @return every fault part in it, in order.
     */
    public static List<ClientFaultLine> all(final CharSequence output)
    {
        final List<ClientFaultLine> lines = new ArrayList<>();
        final Matcher matcher = PATTERN.matcher(output);
        while (matcher.find())
        {
            lines.add(of(matcher));
        }
        return lines;
    }

    private static ClientFaultLine of(final Matcher matcher)
    {
        return new ClientFaultLine(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)),
            Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(4)));
    }
}
