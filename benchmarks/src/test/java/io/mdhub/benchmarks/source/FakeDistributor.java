package io.mdhub.benchmarks.source;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.ripc.RipcCounters;
import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.ripc.RipcServer;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.mdhub.common.test.MdTests;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Plays the distributor for source tests: answers the login (accepting, or refusing when asked), records every
 * message it receives as bytes for the test to decode with ETA.
 */
final class FakeDistributor implements AutoCloseable
{
    final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
    volatile boolean isProviderLogin;
    private final RipcServer server;

    FakeDistributor(final boolean acceptLogin)
    {
        server = RipcServer.launch(new RipcServer.Context()
            .port(MdTests.unusedPort())
            .componentName("fake-distributor")
            .minPingTimeoutNs(TimeUnit.SECONDS.toNanos(1))
            .channelHook((ch) -> ch.pipeline().addLast(new Handler(acceptLogin))));
    }

    int port()
    {
        return server.port();
    }

    /**
     * @return the server's RIPC counters: frames, messages and pings received.
     */
    RipcCounters counters()
    {
        return server.context().counters();
    }

    @Override
    public void close()
    {
        server.close();
    }

    private final class Handler extends ChannelInboundHandlerAdapter
    {
        private final boolean acceptLogin;
        private final EtaMsgReader reader = new EtaMsgReader();
        private final EtaMsgWriter writer = new EtaMsgWriter();
        private final LoginRequestDecoder login = new LoginRequestDecoder();
        private final LoginResponseEncoder response = new LoginResponseEncoder("fake-distributor", 0, 0, 0, 0);
        private final Buffer text = CodecFactory.createBuffer();

        Handler(final boolean acceptLogin)
        {
            this.acceptLogin = acceptLogin;
            text.data(acceptLogin ? "welcome" : "not today");
        }

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            final ByteBuf buf = (ByteBuf)msg;
            try
            {
                final byte[] bytes = new byte[buf.readableBytes()];
                buf.getBytes(buf.readerIndex(), bytes);
                received.add(bytes);
                if (DomainTypes.LOGIN == bytes[3] &&
                    CodecReturnCodes.SUCCESS == reader.read(buf, buf.readerIndex(), buf.readableBytes()) &&
                    CodecReturnCodes.SUCCESS == login.decode(reader))
                {
                    isProviderLogin = login.isProvider();
                    final ByteBuf out = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), 1024);
                    final int rc = acceptLogin ?
                        response.encodeAccept(writer.begin(out, out.writerIndex(), out.writableBytes()),
                            login.request(), false, false, text) :
                        response.encodeReject(writer.begin(out, out.writerIndex(), out.writableBytes()),
                            login.request().streamId(), StateCodes.NOT_ENTITLED, text);
                    if (CodecReturnCodes.SUCCESS != rc)
                    {
                        out.release();
                        throw new IllegalStateException("login answer: " + rc);
                    }
                    out.writerIndex(out.writerIndex() + writer.encodedLength());
                    ctx.writeAndFlush(out, ctx.voidPromise());
                }
            }
            finally
            {
                buf.release();
            }
        }
    }
}
