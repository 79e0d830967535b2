package io.mdhub.benchmarks.bench;

import java.io.File;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.status.CountersReader;

import io.aeron.CncFileDescriptor;

/**
 * The counters of a running media driver, read straight from its CnC file: the counters that MDHub's processes add
 * as clients of that driver (a p2p-server's {@code backbone-messages-in}, {@code backbone-gaps}...) are all there. The
 * file is mapped, not joined as an Aeron client: a bench that only reads would otherwise be one more client for the
 * driver to track and time out.
 */
final class DriverCounters implements AutoCloseable
{
    private final MappedByteBuffer cnc;
    private final CountersReader counters;

    private DriverCounters(final MappedByteBuffer cnc, final CountersReader counters)
    {
        this.cnc = cnc;
        this.counters = counters;
    }

    /**
     * @param aeronDir the driver's Aeron directory (its {@code cnc.dat} must exist: the driver is up).
     * @return the reader.
     */
    static DriverCounters open(final Path aeronDir)
    {
        final File file = aeronDir.resolve(CncFileDescriptor.CNC_FILE).toFile();
        final MappedByteBuffer cnc = IoUtil.mapExistingFile(file, CncFileDescriptor.CNC_FILE);
        try
        {
            final DirectBuffer metaData = CncFileDescriptor.createMetaDataBuffer(cnc);
            CncFileDescriptor.checkVersion(metaData.getInt(CncFileDescriptor.cncVersionOffset(0)));
            return new DriverCounters(cnc, new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(cnc, metaData),
                CncFileDescriptor.createCountersValuesBuffer(cnc, metaData)));
        }
        catch (final RuntimeException ex)
        {
            IoUtil.unmap(cnc);
            throw ex;
        }
    }

    /**
     * @return the driver's counters (sum them with {@code MdCounters.sum}).
     */
    CountersReader counters()
    {
        return counters;
    }

    @Override
    public void close()
    {
        IoUtil.unmap(cnc);
    }
}
