package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;

import io.mdhub.common.rwf.eta.DirectoryRefreshDecoder;
import io.mdhub.common.rwf.eta.EtaMsgReader;

/**
 * A public face of the package's real ETA consumer ({@link TestEtaConsumer}) for tests in sub-packages.
 */
public final class TestEtaConsumerAccess implements AutoCloseable
{
    private final TestEtaConsumer consumer;
    private List<String> lastDirectoryNames = List.of();

    private TestEtaConsumerAccess(final TestEtaConsumer consumer)
    {
        this.consumer = consumer;
    }

    /**
     * Connect and log in as a consumer.
     *
     * @param port p2p-server port.
     * @param user user name.
     * @return the logged-in consumer.
     */
    public static TestEtaConsumerAccess connect(final int port, final String user)
    {
        final TestEtaConsumer consumer = TestEtaConsumer.connect(port);
        final LoginRefresh refresh = consumer.login(user);
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        return new TestEtaConsumerAccess(consumer);
    }

    /**
     * @param streamId directory stream.
     * @param filter   directory filter.
     */
    public void requestDirectory(final int streamId, final long filter)
    {
        consumer.requestDirectory(streamId, filter, true, -1);
    }

    /**
     * @param streamId item stream.
     * @param serviceId service.
     * @param name      item name.
     */
    public void requestItem(final int streamId, final int serviceId, final String name)
    {
        consumer.requestItem(streamId, serviceId, name, true);
    }

    /**
     * @param streamId the stream.
     * @return its next message (directory refreshes also update {@link #lastDirectoryNames()}).
     */
    public Message await(final int streamId)
    {
        final Message message = new Message(consumer.awaitMessage(streamId));
        if (com.refinitiv.eta.rdm.DomainTypes.SOURCE == message.received.domainType)
        {
            final EtaMsgReader reader = new EtaMsgReader();
            final DirectoryRefreshDecoder directory = new DirectoryRefreshDecoder();
            final byte[] bytes = message.received.bytes;
            if (CodecReturnCodes.SUCCESS == reader.read(new UnsafeBuffer(bytes), 0, bytes.length) &&
                CodecReturnCodes.SUCCESS == directory.decode(reader))
            {
                final List<String> names = new ArrayList<>();
                directory.services().forEach((s) -> names.add(s.info().serviceName().toString()));
                lastDirectoryNames = names;
            }
        }
        return message;
    }

    /**
     * @return service names of the last directory refresh awaited.
     */
    public List<String> lastDirectoryNames()
    {
        return lastDirectoryNames;
    }

    @Override
    public void close()
    {
        consumer.close();
    }

    /**
     * One message as the ETA consumer decoded it.
     */
    public static final class Message
    {
        private final TestEtaConsumer.Received received;

        Message(final TestEtaConsumer.Received received)
        {
            this.received = received;
        }

        /**
         * @return msgClass.
         */
        public int msgClass()
        {
            return received.msgClass;
        }

        /**
         * @return message flags.
         */
        public int flags()
        {
            return received.flags;
        }

        /**
         * @return stream state, or -1.
         */
        public int streamState()
        {
            return received.streamState;
        }

        /**
         * @return data state, or -1.
         */
        public int dataState()
        {
            return received.dataState;
        }

        /**
         * @return state code, or -1.
         */
        public int code()
        {
            return received.code;
        }

        /**
         * @param fid a REAL field.
         * @return its mantissa, or null.
         */
        public Long real(final int fid)
        {
            return received.reals.get(fid);
        }

        @Override
        public String toString()
        {
            return received.toString();
        }
    }
}
