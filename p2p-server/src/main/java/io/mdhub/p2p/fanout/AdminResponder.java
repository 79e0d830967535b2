package io.mdhub.p2p.fanout;

import java.util.List;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.eta.DictionaryRefreshEncoder;
import io.mdhub.common.rwf.eta.DictionaryRequestDecoder;
import io.mdhub.common.rwf.eta.DirectoryEncoder;
import io.mdhub.common.rwf.eta.DirectoryRequestDecoder;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.netty.buffer.ByteBuf;

/**
 * The admin domains of one worker, encoded with ETA's RDM helpers: Login (accept, reject), Source Directory
 * (refresh for a filter and an optional service, updates) and Dictionary (multi-part RWFFld / RWFEnum from the
 * server's dictionary: the shipped subset or the configured files). Reused decoders and encoders, worker thread only.
 */
final class AdminResponder
{
    /**
     * SupportBatchRequests: requests (1), reissues (2) and closes (4) are all handled.
     */
    static final long SUPPORT_BATCH = 7;
    private static final int INITIAL_CAPACITY = 4096;
    private static final int MAX_CAPACITY = 1 << 20;
    private static final int MAX_SERVICES = 4096;

    final EtaMsgReader reader = new EtaMsgReader();
    final LoginRequestDecoder loginDecoder = new LoginRequestDecoder();
    final DirectoryRequestDecoder directoryDecoder = new DirectoryRequestDecoder();
    final DictionaryRequestDecoder dictionaryDecoder = new DictionaryRequestDecoder();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final LoginResponseEncoder loginEncoder;
    private final DirectoryEncoder directoryEncoder = new DirectoryEncoder(MAX_SERVICES);
    private final DictionaryRefreshEncoder dictionaryEncoder = new DictionaryRefreshEncoder();
    private final DataDictionary dictionary;
    private final Buffer loginText = CodecFactory.createBuffer();
    private final Buffer directoryText = CodecFactory.createBuffer();
    private final Buffer rejectText = CodecFactory.createBuffer();

    AdminResponder(final String componentName, final DataDictionary dictionary)
    {
        this.dictionary = dictionary;
        loginEncoder = new LoginResponseEncoder(componentName, SUPPORT_BATCH, 1, 1, 0);
        loginText.data("Login accepted by " + componentName);
        directoryText.data("Source directory refresh");
    }

    ByteBuf loginAccept(final ConsumerSession session)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(session.alloc(), INITIAL_CAPACITY);
        final EncodeIterator iterator = writer.begin(out, out.writerIndex(), INITIAL_CAPACITY);
        return finish(out, loginEncoder.encodeAccept(iterator, loginDecoder.request(), true, true, loginText));
    }

    ByteBuf loginReject(final ConsumerSession session, final int streamId, final int code, final String text)
    {
        rejectText.data(text);
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(session.alloc(), INITIAL_CAPACITY);
        final EncodeIterator iterator = writer.begin(out, out.writerIndex(), INITIAL_CAPACITY);
        return finish(out, loginEncoder.encodeReject(iterator, streamId, code, rejectText));
    }

    ByteBuf directoryRefresh(
        final ConsumerSession session,
        final int streamId,
        final long filter,
        final int serviceId,
        final List<Service> services)
    {
        for (int capacity = INITIAL_CAPACITY; capacity <= MAX_CAPACITY; capacity *= 2)
        {
            final ByteBuf out = RipcFrameEncoder.newMessageBuffer(session.alloc(), capacity);
            final EncodeIterator iterator = writer.begin(out, out.writerIndex(), capacity);
            final int result = directoryEncoder.encodeRefresh(
                iterator, streamId, filter, serviceId, true, services, directoryText);
            if (CodecReturnCodes.BUFFER_TOO_SMALL != result)
            {
                return finish(out, result);
            }
            out.release();
        }
        throw new IllegalStateException("directory refresh larger than " + MAX_CAPACITY);
    }

    ByteBuf directoryUpdate(
        final ConsumerSession session, final int streamId, final long filter, final List<Service> changed)
    {
        final ByteBuf out = RipcFrameEncoder.newMessageBuffer(session.alloc(), INITIAL_CAPACITY * 4);
        final EncodeIterator iterator = writer.begin(out, out.writerIndex(), INITIAL_CAPACITY * 4);
        return finish(out, directoryEncoder.encodeUpdate(iterator, streamId, filter, changed));
    }

    /**
     * Encode every part of the requested dictionary and hand each to the session.
     *
     * @return false if encoding failed.
     */
    boolean writeDictionary(final ConsumerSession session, final boolean isFieldDictionary)
    {
        final int streamId = dictionaryDecoder.request().streamId();
        dictionaryEncoder.begin(dictionary, streamId, dictionaryDecoder.request().serviceId(),
            dictionaryDecoder.request().verbosity(), isFieldDictionary, dictionaryDecoder.streaming());
        // one part per frame: a part fills the consumer's maxUserMsgSize, so nothing needs fragmenting; only an
        // entry larger than that (an enum table of thousands of values) goes in a larger part, which RIPC fragments
        final int partSize = session.maxUserMsgSize();
        int capacity = partSize;
        while (true)
        {
            final ByteBuf out = RipcFrameEncoder.newMessageBuffer(session.alloc(), capacity);
            final EncodeIterator iterator = writer.begin(out, out.writerIndex(), capacity);
            final int result = dictionaryEncoder.encodeNextPart(iterator);
            if (CodecReturnCodes.BUFFER_TOO_SMALL == result && capacity < MAX_CAPACITY)
            {
                out.release();
                capacity *= 2;
                continue;
            }
            capacity = partSize;
            if (CodecReturnCodes.SUCCESS != result && CodecReturnCodes.DICT_PART_ENCODED != result)
            {
                out.release();
                return false;
            }
            out.writerIndex(out.writerIndex() + writer.encodedLength());
            session.write(out);
            if (CodecReturnCodes.SUCCESS == result)
            {
                return true;
            }
        }
    }

    private ByteBuf finish(final ByteBuf out, final int result)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            out.release();
            throw new IllegalStateException("admin message encode failed: " + CodecReturnCodes.toString(result));
        }
        out.writerIndex(out.writerIndex() + writer.encodedLength());
        return out;
    }
}
