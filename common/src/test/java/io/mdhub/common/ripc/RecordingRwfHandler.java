package io.mdhub.common.ripc;

import java.util.concurrent.ConcurrentLinkedQueue;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.eta.EtaMsgReader;
import io.mdhub.common.rwf.eta.EtaMsgWriter;
import io.mdhub.common.rwf.eta.LoginRequestDecoder;
import io.mdhub.common.rwf.eta.LoginResponseEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Test application handler, built only from MDHub's own pieces: records each RWF message (a copy), classifies it with
 * the {@link RwfMsgFlyweight}, answers a Login request with a LoginRefresh from {@link LoginResponseEncoder} (ETA on
 * the other end of the connection is the oracle that decodes it), and optionally echoes every other message back
 * (flushing once per read burst, so echoed bursts leave packed).
 */
final class RecordingRwfHandler extends ChannelInboundHandlerAdapter
{
    final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();
    volatile RipcSession session;
    volatile io.netty.channel.Channel channel;
    private final boolean answerLogin;
    private final boolean echo;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private final RwfMsgFlyweight header = new RwfMsgFlyweight();
    private final EtaMsgReader reader = new EtaMsgReader();
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final LoginRequestDecoder loginRequest = new LoginRequestDecoder();
    private final LoginResponseEncoder loginResponse = new LoginResponseEncoder("mdhub-test", 7, 1, 1, 1);
    private final Buffer acceptText = CodecFactory.createBuffer();

    RecordingRwfHandler(final boolean answerLogin, final boolean echo)
    {
        this.answerLogin = answerLogin;
        this.echo = echo;
        acceptText.data("Login accepted by mdhub-test");
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object evt) throws Exception
    {
        if (evt instanceof RipcSession)
        {
            channel = ctx.channel();
            session = (RipcSession)evt;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            final byte[] bytes = RipcTests.bytes(buf);
            received.add(bytes);
            if (answerLogin && isLoginRequest(buf))
            {
                ctx.write(loginRefresh(ctx, buf), ctx.voidPromise());
            }
            else if (echo)
            {
                ctx.write(buf.retain(), ctx.voidPromise());
            }
        }
        finally
        {
            buf.release();
        }
    }

    private boolean isLoginRequest(final ByteBuf buf)
    {
        if (buf.hasMemoryAddress())
        {
            view.wrap(buf.memoryAddress() + buf.readerIndex(), buf.readableBytes());
        }
        else
        {
            view.wrap(buf.nioBuffer());
        }
        return header.wrap(view, 0, buf.readableBytes()) &&
            MsgClasses.REQUEST == header.msgClass() &&
            DomainTypes.LOGIN == header.domainType();
    }

    private ByteBuf loginRefresh(final ChannelHandlerContext ctx, final ByteBuf request)
    {
        if (CodecReturnCodes.SUCCESS != reader.read(request, request.readerIndex(), request.readableBytes()) ||
            CodecReturnCodes.SUCCESS != loginRequest.decode(reader))
        {
            throw new IllegalStateException("undecodable login request");
        }

        final ByteBuf refresh = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), 1024);
        final int rc = loginResponse.encodeAccept(
            writer.begin(refresh, refresh.writerIndex(), refresh.writableBytes()),
            loginRequest.request(), true, true, acceptText);
        if (CodecReturnCodes.SUCCESS != rc)
        {
            refresh.release();
            throw new IllegalStateException("login refresh encoding failed: " + rc);
        }
        return refresh.writerIndex(refresh.writerIndex() + writer.encodedLength());
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx)
    {
        ctx.flush();
        ctx.fireChannelReadComplete();
    }
}
