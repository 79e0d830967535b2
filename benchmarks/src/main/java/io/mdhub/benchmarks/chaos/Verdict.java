package io.mdhub.benchmarks.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A round's verdict: {@code ok}, or {@code FAIL} with every reason found (a round that lost orders and also did not
 * recover says both, so the first fix does not hide the second fault).
 */
public final class Verdict
{
    /** The verdict of a round that kept every promise. */
    public static final String OK = "ok";

    private final List<String> reasons = new ArrayList<>();

    /**
     * Add a reason when the condition holds.
     *
     * @param failed whether the promise was broken.
     * @param reason what to say.
     * @return this.
     */
    public Verdict failIf(final boolean failed, final String reason)
    {
        if (failed)
        {
            reasons.add(reason);
        }
        return this;
    }

    /**
     * @param reason a broken promise.
     * @return this.
     */
    public Verdict fail(final String reason)
    {
        reasons.add(reason);
        return this;
    }

    /**
     * @return true when no promise was broken.
     */
    public boolean isOk()
    {
        return reasons.isEmpty();
    }

    /**
     * @return why it failed (empty when ok).
     */
    public List<String> reasons()
    {
        return Collections.unmodifiableList(reasons);
    }

    @Override
    public String toString()
    {
        return reasons.isEmpty() ? OK : "FAIL: " + String.join("; ", reasons);
    }
}
