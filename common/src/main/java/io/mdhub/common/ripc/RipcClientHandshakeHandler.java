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
import static io.mdhub.common.ripc.ConnectAckDescriptor.SESSION_FLAGS_OFFSET;

import java.io.IOException;
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
import io.netty.handler.ssl.SslHandler;
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
            // The guard (or whoever closed the channel) recorded why: only a close by the peer may trigger the
            // RIPC13 fallback, never a local close, an error or a malformed ack.
            // A close before the TLS handshake completed is a TLS failure, which a RIPC13 retry cannot mend.
            final RipcDisconnectReason recorded = RipcDisconnects.reason(ctx.channel());
            final SslHandler tls = ctx.pipeline().get(SslHandler.class);
            final RipcDisconnectReason reason = null != tls && !tls.handshakeFuture().isSuccess() ?
                RipcDisconnectReason.TLS_HANDSHAKE : null == recorded ? RipcDisconnectReason.PEER_CLOSED : recorded;
            connectPromise.tryFailure(new RipcHandshakeException(
                reason, version, "connection ended (" + reason.label() + ") before the ConnectAck"));
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause) throws Exception
    {
        if (!isDone && cause instanceof IOException)
        {
            // a reset during the handshake is how some servers close on a version they do not speak
            disconnects.disconnect(ctx.channel(), RipcDisconnectReason.PEER_CLOSED, cause.toString());
            return;
        }
        super.exceptionCaught(ctx, cause);
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
        try
        {
            decodeReply(ctx, in.slice(start, length));
        }
        catch (final RuntimeException ex)
        {
            // whatever a malformed ack makes the decoding throw, it is the server's fault: no version fallback
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "malformed ConnectAck: " + ex);
            return;
        }
        in.skipBytes(length);
    }

    /**
     * @param reply exactly one ConnectAck/Nak (a slice, so no read can run past it).
     */
    private void decodeReply(final ChannelHandlerContext ctx, final ByteBuf reply)
    {
        final int length = reply.readableBytes();
        final int flags = reply.getUnsignedByte(FLAGS_OFFSET);
        final int opcode = reply.getUnsignedByte(OPCODE_OFFSET);
        if (0 == (flags & ConnectAckDescriptor.FLAGS) ||
            (ConnectAckDescriptor.OPCODE_ACK != opcode && ConnectAckDescriptor.OPCODE_NAK != opcode))
        {
            fail(ctx, reply, RipcDisconnectReason.BAD_HANDSHAKE,
                "flags=0x" + Integer.toHexString(flags) + " opcode=0x" + Integer.toHexString(opcode));
            return;
        }
        if (ConnectAckDescriptor.OPCODE_NAK == opcode)
        {
            fail(ctx, reply, RipcDisconnectReason.CONNECT_REFUSED, "ConnectNak: " + nakText(reply, length));
            return;
        }
        if (length < ConnectAckDescriptor.FIXED_LENGTH)
        {
            fail(ctx, reply, RipcDisconnectReason.BAD_HANDSHAKE, "ConnectAck length=" + length + " < " +
                ConnectAckDescriptor.FIXED_LENGTH);
            return;
        }
        if (0 != (flags & ConnectAckDescriptor.FORCE_COMPRESSION_FLAG) ||
            0 != reply.getUnsignedShort(COMPRESSION_TYPE_OFFSET))
        {
            fail(ctx, reply, RipcDisconnectReason.BAD_HANDSHAKE,
                "server wants compression, which MDHub does not speak");
            return;
        }
        decodeAck(ctx, reply, length);
    }

    private void decodeAck(final ChannelHandlerContext ctx, final ByteBuf ack, final int length)
    {
        final long ripcVersion = ack.getUnsignedInt(RIPC_VERSION_OFFSET);
        final int maxUserMsgSize = ack.getUnsignedShort(MAX_USER_MSG_SIZE_OFFSET);
        final int sessionFlags = ack.getUnsignedByte(SESSION_FLAGS_OFFSET);
        final int pingTimeoutSeconds = ack.getUnsignedByte(PING_TIMEOUT_OFFSET);
        final String invalid = invalidAckField(ripcVersion, maxUserMsgSize, pingTimeoutSeconds);
        if (null != invalid)
        {
            fail(ctx, ack, RipcDisconnectReason.BAD_HANDSHAKE, invalid);
            return;
        }

        int position = KEY_EXCHANGE_OFFSET;
        RipcKeyExchange keyExchange = null;
        if (version.hasKeyExchange())
        {
            if (position + ConnectAckDescriptor.KEY_EXCHANGE_HEADER_LENGTH > length)
            {
                fail(ctx, ack, RipcDisconnectReason.BAD_HANDSHAKE, "RIPC14 ConnectAck without key-exchange block");
                return;
            }
            final int type = ack.getUnsignedByte(position + 1);
            final int keyLength = ack.getUnsignedByte(position + 2);
            position += ConnectAckDescriptor.KEY_EXCHANGE_HEADER_LENGTH;
            if (position + keyLength > length)
            {
                fail(ctx, ack, RipcDisconnectReason.BAD_HANDSHAKE, "key block length=" + keyLength + " overruns ack");
                return;
            }
            if (ConnectAckDescriptor.KEY_EXCHANGE_TR_SL1_64 == type &&
                keyLength >= ConnectAckDescriptor.TR_SL1_64_BLOCK_LENGTH)
            {
                // throws on a degenerate prime: caught by decode(), nothing allocated yet
                keyExchange = new RipcKeyExchange(
                    ack.getLong(position), ack.getLong(position + 8), ack.getLong(position + 16), random);
            }
            position += keyLength;
        }

        String remoteComponent = "";
        if (position + 2 <= length)
        {
            final int componentLength = Math.min(ack.getUnsignedByte(position + 1), length - position - 2);
            remoteComponent = ack.toString(position + 2, componentLength, StandardCharsets.ISO_8859_1);
        }

        if (version.hasKeyExchange())
        {
            ctx.writeAndFlush(encodeClientKey(ctx, keyExchange));
        }
        isDone = true;
        timeout.cancel(false);
        final RipcSession session = new RipcSession(version, maxUserMsgSize, pingTimeoutSeconds,
            ConnectReqDescriptor.PROTOCOL_TYPE_RWF, ack.getUnsignedByte(MAJOR_VERSION_OFFSET),
            ack.getUnsignedByte(MINOR_VERSION_OFFSET), remoteComponent, "", "",
            null == keyExchange ? 0 : keyExchange.sharedKey())
            .withPeerSendingPings(0 != (sessionFlags & ConnectAckDescriptor.SESSION_FLAG_SERVER_PINGS));
        RipcPipeline.enterDataPhase(ctx, session, settings);
        connectPromise.trySuccess(ctx.channel());
    }

    /**
     * @return why the ack's fixed fields are unusable, or null when they are fine. A server announcing a tiny
     * maxUserMsgSize or a zero ping timeout would make framing or liveness fail later in obscure ways.
     */
    private String invalidAckField(final long ripcVersion, final int maxUserMsgSize, final int pingTimeoutSeconds)
    {
        if (ripcVersion != version.ripcVersion())
        {
            return "ripcVersion=" + ripcVersion + ", asked for " + version.ripcVersion();
        }
        if (maxUserMsgSize < ConnectAckDescriptor.MIN_MAX_USER_MSG_SIZE ||
            maxUserMsgSize > ConnectAckDescriptor.MAX_MAX_USER_MSG_SIZE)
        {
            return "maxUserMsgSize=" + maxUserMsgSize + " outside [" + ConnectAckDescriptor.MIN_MAX_USER_MSG_SIZE +
                ", " + ConnectAckDescriptor.MAX_MAX_USER_MSG_SIZE + "]";
        }
        if (pingTimeoutSeconds < 1)
        {
            return "pingTimeout=" + pingTimeoutSeconds + " s";
        }
        return null;
    }

    private static ByteBuf encodeClientKey(final ChannelHandlerContext ctx, final RipcKeyExchange keyExchange)
    {
        final ByteBuf clientKey = ctx.alloc().buffer(ClientKeyDescriptor.TR_SL1_64_LENGTH);
        if (null != keyExchange)
        {
            clientKey.writeShort(ClientKeyDescriptor.TR_SL1_64_LENGTH)
                .writeByte(ClientKeyDescriptor.FLAG)
                .writeByte(ClientKeyDescriptor.TR_SL1_64_KEY_LENGTH)
                .writeLong(keyExchange.publicKey());
        }
        else
        {
            clientKey.writeShort(ClientKeyDescriptor.DECLINED_LENGTH).writeByte(ClientKeyDescriptor.FLAG)
                .writeByte(0);
        }
        return clientKey;
    }

    private ByteBuf encodeConnectReq(final ChannelHandlerContext ctx)
    {
        final byte[] ipAddress = localIp(ctx.channel().localAddress()).getBytes(StandardCharsets.US_ASCII);
        final int headerLength = ConnectReqDescriptor.headerLength(0, hostName.length, ipAddress.length);
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

    private static String nakText(final ByteBuf reply, final int length)
    {
        final int textLength = Math.min(reply.getUnsignedShort(ConnectNakDescriptor.TEXT_LENGTH_OFFSET),
            length - ConnectNakDescriptor.TEXT_OFFSET);
        final String text = reply.toString(ConnectNakDescriptor.TEXT_OFFSET, textLength,
            StandardCharsets.ISO_8859_1);
        final int nul = text.indexOf('\0');
        return nul >= 0 ? text.substring(0, nul) : text;
    }

    /**
     * The local IP as text for the ConnectReq, without an IPv6 scope ("%eth0"), so it never exceeds
     * {@link ConnectReqDescriptor#MAX_IP_ADDRESS_LENGTH} (which conclude budgeted for).
     */
    static String localIp(final SocketAddress address)
    {
        if (!(address instanceof InetSocketAddress) || null == ((InetSocketAddress)address).getAddress())
        {
            return "127.0.0.1";
        }
        final String text = ((InetSocketAddress)address).getAddress().getHostAddress();
        final int scope = text.indexOf('%');
        final String ip = scope >= 0 ? text.substring(0, scope) : text;
        return ip.length() <= ConnectReqDescriptor.MAX_IP_ADDRESS_LENGTH ? ip : "127.0.0.1";
    }
}
