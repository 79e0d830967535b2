package io.mdhub.common.test.order;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;

/**
 * Helpers for order client tests: an embedded media driver and order bytes.
 */
public final class OrderTests
{
    /** Length of the probe's FIX orders. */
    public static final int ORDER_LENGTH = 305;

    private OrderTests()
    {
    }

    /**
     * An embedded media driver, one SHARED thread that backs off, in a directory of its own (deleted on close).
     *
     * @param dir             where the Aeron directory goes.
     * @param ipcTermLength   IPC term length (64 KiB makes back-pressure easy to reach).
     * @return the driver.
     */
    public static MediaDriver launchDriver(final Path dir, final int ipcTermLength)
    {
        return MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .threadingMode(ThreadingMode.SHARED)
            .ipcTermBufferLength(ipcTermLength)
            .publicationTermBufferLength(64 * 1024)
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
    }

    /**
     * Order bytes for a fake server (which does not parse them): {@value #ORDER_LENGTH} bytes naming the order id.
     *
     * @param orderId the order id.
     * @return the bytes.
     */
    public static UnsafeBuffer order(final long orderId)
    {
        final byte[] bytes = new byte[ORDER_LENGTH];
        Arrays.fill(bytes, (byte)'x');
        final byte[] head = ("8=FIX.4.4\u00019=0\u000135=D\u000111=" + orderId + "\u0001")
            .getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(head, 0, bytes, 0, head.length);
        return new UnsafeBuffer(bytes);
    }
}
