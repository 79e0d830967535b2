package io.mdhub.common.entitlement;

import java.util.Arrays;

/**
 * The permission codes a user holds on one service, or every code ({@link #ALL}: the file's {@code *}).
 */
public final class CodeSet
{
    /** Every code: the user sees every item of the service, locked or not. */
    public static final CodeSet ALL = new CodeSet(null);
    /** No code: the user sees the service's unlocked items only. */
    public static final CodeSet NONE = new CodeSet(new int[0]);

    private final int[] sorted;

    private CodeSet(final int[] sorted)
    {
        this.sorted = sorted;
    }

    /**
     * @param codes the codes held.
     * @return the set.
     */
    public static CodeSet of(final int... codes)
    {
        final int[] sorted = codes.clone();
        Arrays.sort(sorted);
        return new CodeSet(sorted);
    }

    /**
     * @param code a permission code.
     * @return true if the set holds it.
     */
    public boolean contains(final int code)
    {
        return null == sorted || Arrays.binarySearch(sorted, code) >= 0;
    }

    @Override
    public String toString()
    {
        return null == sorted ? "*" : Arrays.toString(sorted);
    }
}
