package io.mdhub.p2p.order;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

import org.agrona.DirectBuffer;

import io.mdhub.common.codecs.order.MessageHeaderDecoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;

/**
 * The stock downstream sinks and the factory that reads {@code mdhub.order.sink}: {@code noop} (counts and drops,
 * as the GemCache tests ran: no downstream system), {@code file:<path>} (one CSV line per order:
 * partition,sequence,epoch,clientId,orderId,symbol,side,quantity,priceMantissa,priceExponent; written to the file
 * at every flush, fsynced too with {@code mdhub.order.sink.fsync}), or the class name of an {@link OrderSink} with
 * a public no-argument constructor.
 */
public final class OrderSinks
{
    private OrderSinks()
    {
    }

    /**
     * @param spec {@code noop}, {@code file:<path>} or a class name.
     * @return a new sink.
     */
    public static OrderSink create(final String spec)
    {
        return create(spec, false);
    }

    /**
     * @param spec  {@code noop}, {@code file:<path>} or a class name.
     * @param fsync a file sink forces its data to disk at every flush.
     * @return a new sink.
     */
    public static OrderSink create(final String spec, final boolean fsync)
    {
        if ("noop".equals(spec))
        {
            return new NoOpSink();
        }
        if (spec.startsWith("file:"))
        {
            return new FileSink(Paths.get(spec.substring("file:".length())), fsync);
        }
        return OrderService.Context.instantiate(spec, OrderSink.class);
    }

    /**
     * Takes everything, keeps nothing.
     */
    public static final class NoOpSink implements OrderSink
    {
        private long written;

        @Override
        public boolean write(
            final int partition, final long sequence, final DirectBuffer record, final int offset, final int length)
        {
            written++;
            return true;
        }

        /**
         * @return records taken.
         */
        public long written()
        {
            return written;
        }
    }

    /**
     * Appends one CSV line per order to a file: lines are buffered while a batch is written and handed to the OS at
     * every {@link #flush()} (so they survive the process being killed) and, with fsync, forced to disk (so they
     * survive the host).
     */
    public static final class FileSink implements OrderSink
    {
        private final FileChannel channel;
        private final boolean fsync;
        private final ByteBuffer out = ByteBuffer.allocateDirect(64 * 1024);
        private final MessageHeaderDecoder header = new MessageHeaderDecoder();
        private final OrderRecordDecoder decoder = new OrderRecordDecoder();
        private final byte[] symbol = new byte[16];

        /**
         * @param path the file (appended to; created if missing).
         */
        public FileSink(final Path path)
        {
            this(path, false);
        }

        /**
         * @param path  the file (appended to; created if missing).
         * @param fsync force the file to disk at every flush.
         */
        public FileSink(final Path path, final boolean fsync)
        {
            this.fsync = fsync;
            try
            {
                channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }

        @Override
        public boolean write(
            final int partition, final long sequence, final DirectBuffer record, final int offset, final int length)
        {
            if (out.remaining() < 256)
            {
                writeOut();
            }
            decoder.wrapAndApplyHeader(record, offset, header);
            final int symbolLength = decoder.getSymbol(symbol, 0);
            int end = 0;
            while (end < symbolLength && 0 != symbol[end])
            {
                end++;
            }
            putLong(partition).put((byte)',');
            putLong(sequence).put((byte)',');
            putLong(decoder.epoch()).put((byte)',');
            putLong(decoder.clientId()).put((byte)',');
            putLong(decoder.orderId()).put((byte)',');
            out.put(symbol, 0, end).put((byte)',');
            putLong(decoder.sideRaw()).put((byte)',');
            putLong(decoder.quantity()).put((byte)',');
            putLong(decoder.priceMantissa()).put((byte)',');
            putLong(decoder.priceExponent()).put((byte)'\n');
            return true;
        }

        private ByteBuffer putLong(final long value)
        {
            if (0 == value)
            {
                return out.put((byte)'0');
            }
            long remaining = value;
            if (remaining < 0)
            {
                out.put((byte)'-');
            }
            final int start = out.position();
            while (0 != remaining)
            {
                out.put((byte)('0' + Math.abs(remaining % 10)));
                remaining /= 10;
            }
            for (int i = start, j = out.position() - 1; i < j; i++, j--)
            {
                final byte digit = out.get(i);
                out.put(i, out.get(j));
                out.put(j, digit);
            }
            return out;
        }

        @Override
        public boolean flush()
        {
            writeOut();
            if (fsync)
            {
                try
                {
                    channel.force(false);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }
            return true;
        }

        private void writeOut()
        {
            if (0 == out.position())
            {
                return;
            }
            out.flip();
            try
            {
                while (out.hasRemaining())
                {
                    channel.write(out);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex); // the batch is not durable: the drainer writes it again
            }
            finally
            {
                out.clear();
            }
        }

        @Override
        public void close()
        {
            writeOut();
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }
}
