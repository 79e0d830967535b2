package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.ConnectAckDescriptor.COMPRESSION_TYPE_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.FLAGS_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.KEY_EXCHANGE_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.MAJOR_VERSION_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.MAX_USER_MSG_SIZE_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.MINOR_VERSION_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.OPCODE_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.PING_TIMEOUT_OFFSET;
import static io.mdhub.common.ripc.ConnectAckDescriptor.RIPC_VERSION_OFFSET;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.Promise;

/**
 * Client side of the RIPC handshake, as an ETA client does it: sends a ConnectReq (RIPC14 with key exchange
 * requested, or RIPC13), reads the ConnectAck (answering a TR_SL1_64 key-exchange offer with a correct ClientKey,
 * any other with {@code 00 04 08 00}) or ConnectNak, then hands over to the data-phase handlers and completes the
 * connect promise. A NAK, a close, malformed bytes or the handshake timeout fail the promise with a
 * {@link RipcHandshakeException}. Per channel, not shareable.
 */
final class RipcClientHandshakeHandler extends ByteToMessageDecoder
{
    private static final int MAX_REPLY_LENGTH = 1024;

    private final RipcChannelSettings settings;
    private final RipcDisconnects disconnects;
    private final RipcVersion version;
    private final int requestedPingTimeoutSeconds;
    private final byte[] hostName;
    private final byte[] component;
    private final SecureRandom random;
    private final Promise<Channel> connectPromise;
    private ScheduledFuture<?> timeout;
    private boolean isDone;

    RipcClientHandshakeHandler(
        final RipcChannelSettings settings,
        final RipcVersion version,
        final int requestedPingTimeoutSeconds,
        final String hostName,
        final SecureRandom random,
        final Promise<Channel> connectPromise)
    {
        this.settings = settings;
        this.disconnects = settings.disconnects();
        this.version = version;
        this.requestedPingTimeoutSeconds = requestedPingTimeoutSeconds;
        this.hostName = hostName.getBytes(StandardCharsets.US_ASCII);
        this.component = settings.componentName().getBytes(StandardCharsets.US_ASCII);
        this.random = random;
        this.connectPromise = connectPromise;
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        timeout = ctx.executor().schedule(
            () -> fail(ctx, null, RipcDisconnectReason.HANDSHAKE_TIMEOUT,
                "no ConnectAck within " + TimeUnit.NANOSECONDS.toMillis(settings.handshakeTimeoutNs()) + " ms"),
            settings.handshakeTimeoutNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void handlerRemoved0(final ChannelHandlerContext ctx)
    {
        timeout.cancel(false);
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        ctx.writeAndFlush(encodeConnectReq(ctx));
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (!isDone)
        {
            isDone = true;
            timeout.cancel(false);
            connectPromise.tryFailure(new RipcHandshakeException(
                RipcDisconnectReason.PEER_CLOSED, version, "connection closed before the ConnectAck"));
        }
        super.channelInactive(ctx);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (isDone)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        final int start = in.readerIndex();
        if (in.readableBytes() < 2)
        {
            return;
        }
        final int length = in.getUnsignedShort(start);
        if (length < ConnectNakDescriptor.TEXT_OFFSET || length > MAX_REPLY_LENGTH)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "ConnectAck/Nak length=" + length);
            return;
        }
        if (in.readableBytes() < length)
        {
            return;
        }
        final int flags = in.getUnsignedByte(start + FLAGS_OFFSET);
        final int opcode = in.getUnsignedByte(start + OPCODE_OFFSET);
        if (0 == (flags & ConnectAckDescriptor.FLAGS) ||
            (ConnectAckDescriptor.OPCODE_ACK != opcode && ConnectAckDescriptor.OPCODE_NAK != opcode))
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE,
                "flags=0x" + Integer.toHexString(flags) + " opcode=0x" + Integer.toHexString(opcode));
            return;
        }
        if (ConnectAckDescriptor.OPCODE_NAK == opcode)
        {
            final String text = nakText(in, start, length);
            fail(ctx, in, RipcDisconnectReason.CONNECT_REFUSED, "ConnectNak: " + text);
            return;
        }
        if (0 != (flags & ConnectAckDescriptor.FORCE_COMPRESSION_FLAG) ||
            0 != in.getUnsignedShort(start + COMPRESSION_TYPE_OFFSET))
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "server wants compression, which MDHub does not speak");
            return;
        }
        decodeAck(ctx, in, start, length);
    }

    private void decodeAck(final ChannelHandlerContext ctx, final ByteBuf in, final int start, final int length)
    {
        if (length < ConnectAckDescriptor.FIXED_LENGTH)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "ConnectAck length=" + length);
            return;
        }
        final long ripcVersion = in.getUnsignedInt(start + RIPC_VERSION_OFFSET);
        if (ripcVersion != version.ripcVersion())
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE,
                "ripcVersion=" + ripcVersion + ", asked for " + version.ripcVersion());
            return;
        }
        final int maxUserMsgSize = in.getUnsignedShort(start + MAX_USER_MSG_SIZE_OFFSET);
        final int pingTimeoutSeconds = in.getUnsignedByte(start + PING_TIMEOUT_OFFSET);
        final int end = start + length;
        int position = start + KEY_EXCHANGE_OFFSET;

        ByteBuf clientKey = null;
        long sharedKey = 0;
        if (version.hasKeyExchange())
        {
            if (position + ConnectAckDescriptor.KEY_EXCHANGE_HEADER_LENGTH > end)
            {
                fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "RIPC14 ConnectAck without key-exchange block");
                return;
            }
            final int type = in.getUnsignedByte(position + 1);
            final int keyLength = in.getUnsignedByte(position + 2);
            position += ConnectAckDescriptor.KEY_EXCHANGE_HEADER_LENGTH;
            if (position + keyLength > end)
            {
                fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "key block length=" + keyLength + " overruns ack");
                return;
            }
            clientKey = ctx.alloc().buffer(ClientKeyDescriptor.TR_SL1_64_LENGTH);
            if (ConnectAckDescriptor.KEY_EXCHANGE_TR_SL1_64 == type &&
                keyLength >= ConnectAckDescriptor.TR_SL1_64_BLOCK_LENGTH)
            {
                final RipcKeyExchange exchange = new RipcKeyExchange(
                    in.getLong(position), in.getLong(position + 8), in.getLong(position + 16), random);
                sharedKey = exchange.sharedKey();
                clientKey.writeShort(ClientKeyDescriptor.TR_SL1_64_LENGTH)
                    .writeByte(ClientKeyDescriptor.FLAG)
                    .writeByte(ClientKeyDescriptor.TR_SL1_64_KEY_LENGTH)
                    .writeLong(exchange.publicKey());
            }
            else
            {
                clientKey.writeShort(ClientKeyDescriptor.DECLINED_LENGTH).writeByte(ClientKeyDescriptor.FLAG)
                    .writeByte(0);
            }
            position += keyLength;
        }

        String remoteComponent = "";
        if (position + 2 <= end)
        {
            final int componentLength = Math.min(in.getUnsignedByte(position + 1), end - position - 2);
            remoteComponent = in.toString(position + 2, componentLength, StandardCharsets.ISO_8859_1);
        }
        in.readerIndex(end);

        if (null != clientKey)
        {
            ctx.writeAndFlush(clientKey);
        }
        isDone = true;
        timeout.cancel(false);
        final RipcSession session = new RipcSession(version, maxUserMsgSize, pingTimeoutSeconds,
            ConnectReqDescriptor.PROTOCOL_TYPE_RWF, in.getUnsignedByte(start + MAJOR_VERSION_OFFSET),
            in.getUnsignedByte(start + MINOR_VERSION_OFFSET), remoteComponent, "", "", sharedKey);
        RipcPipeline.enterDataPhase(ctx, session, settings);
        connectPromise.trySuccess(ctx.channel());
    }

    private ByteBuf encodeConnectReq(final ChannelHandlerContext ctx)
    {
        final byte[] ipAddress = localIp(ctx.channel().localAddress()).getBytes(StandardCharsets.US_ASCII);
        final int headerLength = ConnectReqDescriptor.COMPRESSION_BITMAP_OFFSET + 5 + 1 + hostName.length + 1 +
            ipAddress.length;
        final int length = headerLength + 2 + component.length;
        final ByteBuf req = ctx.alloc().buffer(length);
        req.writeShort(length)
            .writeByte(0)
            .writeInt(version.connectionVersion())
            .writeByte(version.hasKeyExchange() ? ConnectReqDescriptor.KEY_EXCHANGE_FLAG : 0)
            .writeByte(headerLength)
            .writeByte(0) // no compression bitmap: MDHub never compresses
            .writeByte(requestedPingTimeoutSeconds)
            .writeByte(0) // session flags
            .writeByte(ConnectReqDescriptor.PROTOCOL_TYPE_RWF)
            .writeByte(ConnectAckDescriptor.RWF_MAJOR_VERSION)
            .writeByte(ConnectAckDescriptor.RWF_MINOR_VERSION)
            .writeByte(hostName.length).writeBytes(hostName)
            .writeByte(ipAddress.length).writeBytes(ipAddress)
            .writeByte(component.length + 1).writeByte(component.length).writeBytes(component);
        return req;
    }

    private void fail(
        final ChannelHandlerContext ctx, final ByteBuf in, final RipcDisconnectReason reason, final String detail)
    {
        if (null != in)
        {
            in.skipBytes(in.readableBytes());
        }
        if (isDone)
        {
            return;
        }
        isDone = true;
        timeout.cancel(false);
        disconnects.disconnect(ctx.channel(), reason, detail); // counted before the caller learns of the failure
        connectPromise.tryFailure(new RipcHandshakeException(reason, version, detail));
    }

    private static String nakText(final ByteBuf in, final int start, final int length)
    {
        if (length < ConnectNakDescriptor.TEXT_OFFSET)
        {
            return "";
        }
        final int textLength = Math.min(in.getUnsignedShort(start + ConnectNakDescriptor.TEXT_LENGTH_OFFSET),
            length - ConnectNakDescriptor.TEXT_OFFSET);
        final String text = in.toString(start + ConnectNakDescriptor.TEXT_OFFSET, textLength,
            StandardCharsets.ISO_8859_1);
        final int nul = text.indexOf('\0');
        return nul >= 0 ? text.substring(0, nul) : text;
    }

    private static String localIp(final SocketAddress address)
    {
        return address instanceof InetSocketAddress ?
            ((InetSocketAddress)address).getAddress().getHostAddress() : "127.0.0.1";
    }
}
