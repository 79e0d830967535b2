package io.mdhub.common.ripc;

import static io.mdhub.common.ripc.ConnectReqDescriptor.COMPRESSION_BITMAP_OFFSET;
import static io.mdhub.common.ripc.ConnectReqDescriptor.COMPRESSION_BITMAP_SIZE_OFFSET;
import static io.mdhub.common.ripc.ConnectReqDescriptor.CONNECTION_VERSION_OFFSET;
import static io.mdhub.common.ripc.ConnectReqDescriptor.HEADER_LENGTH_OFFSET;
import static io.mdhub.common.ripc.ConnectReqDescriptor.OPCODE_OFFSET;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Server side of the RIPC handshake (protocol facts §1.8): reads the ConnectReq, answers with a ConnectAck (RIPC14
 * or RIPC13, compression declined, key exchange declined with {@code 08 00 00}), swallows the RIPC14 ClientKey, then
 * hands over to the data-phase handlers. Versions it does not speak are closed (an ETA client then retries with the
 * next lower version on a new connection); what it can never serve (a protocol type other than RWF) is NAKed (the
 * ETA client gives up). The whole handshake must finish within the handshake timeout, which also catches a peer
 * that trickles bytes. Per channel, not shareable.
 */
final class RipcServerHandshakeHandler extends ByteToMessageDecoder
{
    private final RipcChannelSettings settings;
    private final RipcServerSettings serverSettings;
    private final RipcDisconnects disconnects;
    private ScheduledFuture<?> timeout;
    private RipcSession session;
    private boolean isFailed;

    RipcServerHandshakeHandler(final RipcChannelSettings settings, final RipcServerSettings serverSettings)
    {
        this.settings = settings;
        this.serverSettings = serverSettings;
        this.disconnects = settings.disconnects();
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        timeout = ctx.executor().schedule(
            () -> disconnects.disconnect(ctx.channel(), RipcDisconnectReason.HANDSHAKE_TIMEOUT,
                (null == session ? "no complete ConnectReq" : "no ClientKey") + " within " +
                TimeUnit.NANOSECONDS.toMillis(settings.handshakeTimeoutNs()) + " ms"),
            settings.handshakeTimeoutNs(), TimeUnit.NANOSECONDS);
    }

    @Override
    protected void handlerRemoved0(final ChannelHandlerContext ctx)
    {
        timeout.cancel(false);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (isFailed)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (null == session)
        {
            decodeConnectReq(ctx, in);
        }
        else
        {
            decodeClientKey(ctx, in);
        }
    }

    private void decodeConnectReq(final ChannelHandlerContext ctx, final ByteBuf in)
    {
        final int start = in.readerIndex();
        if (in.readableBytes() < 2)
        {
            return;
        }
        final int length = in.getUnsignedShort(start);
        if (length < ConnectReqDescriptor.MIN_LENGTH || length > ConnectReqDescriptor.MAX_LENGTH)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "ConnectReq length=" + length);
            return;
        }
        if (in.readableBytes() > OPCODE_OFFSET && 0 != in.getByte(start + OPCODE_OFFSET))
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE,
                "ConnectReq opcode=0x" + Integer.toHexString(in.getUnsignedByte(start + OPCODE_OFFSET)));
            return;
        }
        if (in.readableBytes() < length)
        {
            return;
        }

        final long connectionVersion = in.getUnsignedInt(start + CONNECTION_VERSION_OFFSET);
        final RipcVersion version = RipcVersion.fromConnectionVersion(connectionVersion);
        if (null == version)
        {
            final boolean isOlder = RipcVersion.isKnownOlderVersion(connectionVersion);
            fail(ctx, in, isOlder ? RipcDisconnectReason.VERSION_NOT_SUPPORTED : RipcDisconnectReason.BAD_HANDSHAKE,
                "connectionVersion=0x" + Long.toHexString(connectionVersion) +
                (isOlder ? ", closed for fallback" : ""));
            return;
        }

        final ConnectReqFields fields = parse(in, start, length);
        if (null != fields.error)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, fields.error);
            return;
        }
        in.readerIndex(start + length);

        if (ConnectReqDescriptor.PROTOCOL_TYPE_RWF != fields.protocolType)
        {
            refuse(ctx, in, "protocol type " + fields.protocolType + " not supported, only RWF (0)");
            return;
        }

        final int pingTimeoutSeconds = serverSettings.negotiatePingTimeoutSeconds(fields.pingTimeoutSeconds);
        session = new RipcSession(version, serverSettings.maxUserMsgSize(), pingTimeoutSeconds, fields.protocolType,
            fields.majorVersion, fields.minorVersion, fields.component, fields.hostName, fields.ipAddress, 0);
        ctx.writeAndFlush(encodeAck(ctx, version, pingTimeoutSeconds));

        if (!version.hasKeyExchange())
        {
            RipcPipeline.enterDataPhase(ctx, session, settings);
        }
    }

    private void decodeClientKey(final ChannelHandlerContext ctx, final ByteBuf in)
    {
        final int start = in.readerIndex();
        if (in.readableBytes() < 2)
        {
            return;
        }
        final int length = in.getUnsignedShort(start);
        if (ClientKeyDescriptor.DECLINED_LENGTH != length && ClientKeyDescriptor.TR_SL1_64_LENGTH != length)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE, "ClientKey length=" + length);
            return;
        }
        if (in.readableBytes() < length)
        {
            return;
        }
        final int flag = in.getUnsignedByte(start + ClientKeyDescriptor.FLAG_OFFSET);
        final int keyLength = in.getUnsignedByte(start + ClientKeyDescriptor.KEY_LENGTH_OFFSET);
        if (ClientKeyDescriptor.FLAG != flag || ClientKeyDescriptor.KEY_OFFSET + keyLength != length)
        {
            fail(ctx, in, RipcDisconnectReason.BAD_HANDSHAKE,
                "ClientKey flag=0x" + Integer.toHexString(flag) + " key length=" + keyLength);
            return;
        }
        in.readerIndex(start + length); // the key is ignored: we offered no key exchange
        RipcPipeline.enterDataPhase(ctx, session, settings);
    }

    private ByteBuf encodeAck(final ChannelHandlerContext ctx, final RipcVersion version, final int pingTimeout)
    {
        final byte[] component = serverSettings.componentBytes();
        final int keyBlockLength = version.hasKeyExchange() ? ConnectAckDescriptor.KEY_EXCHANGE_HEADER_LENGTH : 0;
        final int length = ConnectAckDescriptor.FIXED_LENGTH + keyBlockLength + 2 + component.length;
        final ByteBuf ack = ctx.alloc().buffer(length);
        ack.writeShort(length)
            .writeByte(ConnectAckDescriptor.FLAGS)
            .writeByte(ConnectAckDescriptor.OPCODE_ACK)
            .writeByte(ConnectAckDescriptor.HEADER_LENGTH)
            .writeByte(0)
            .writeInt(version.ripcVersion())
            .writeShort(serverSettings.maxUserMsgSize())
            .writeByte(ConnectAckDescriptor.SESSION_FLAGS_BOTH_PINGS)
            .writeByte(pingTimeout)
            .writeByte(ConnectAckDescriptor.RWF_MAJOR_VERSION)
            .writeByte(ConnectAckDescriptor.RWF_MINOR_VERSION)
            .writeShort(0) // compression type: none, never forced
            .writeByte(0); // compression level
        if (version.hasKeyExchange())
        {
            ack.writeByte(ConnectAckDescriptor.KEY_EXCHANGE_FLAG)
                .writeByte(ConnectAckDescriptor.KEY_EXCHANGE_NONE)
                .writeByte(0);
        }
        ack.writeByte(component.length + 1).writeByte(component.length).writeBytes(component);
        return ack;
    }

    private void refuse(final ChannelHandlerContext ctx, final ByteBuf in, final String text)
    {
        isFailed = true;
        in.skipBytes(in.readableBytes());
        timeout.cancel(false);
        final byte[] textBytes = (text + '\0').getBytes(StandardCharsets.US_ASCII);
        final int length = ConnectNakDescriptor.TEXT_OFFSET + textBytes.length;
        final ByteBuf nak = ctx.alloc().buffer(length);
        nak.writeShort(length)
            .writeByte(ConnectAckDescriptor.FLAGS)
            .writeByte(ConnectAckDescriptor.OPCODE_NAK)
            .writeByte(ConnectNakDescriptor.HEADER_LENGTH)
            .writeByte(0)
            .writeShort(textBytes.length)
            .writeBytes(textBytes);
        disconnects.record(ctx.channel(), RipcDisconnectReason.CONNECT_REFUSED, text);
        ctx.writeAndFlush(nak).addListener(ChannelFutureListener.CLOSE);
    }

    private void fail(
        final ChannelHandlerContext ctx, final ByteBuf in, final RipcDisconnectReason reason, final String detail)
    {
        isFailed = true;
        in.skipBytes(in.readableBytes());
        timeout.cancel(false);
        disconnects.disconnect(ctx.channel(), reason, detail);
    }

    private static ConnectReqFields parse(final ByteBuf in, final int start, final int length)
    {
        final ConnectReqFields fields = new ConnectReqFields();
        final int headerLength = in.getUnsignedByte(start + HEADER_LENGTH_OFFSET);
        final int bitmapSize = in.getUnsignedByte(start + COMPRESSION_BITMAP_SIZE_OFFSET);
        int position = start + COMPRESSION_BITMAP_OFFSET + bitmapSize;
        final int headerEnd = start + headerLength;
        if (headerLength > length || position + 5 > headerEnd)
        {
            fields.error = "ConnectReq headerLength=" + headerLength + " bitmap size=" + bitmapSize +
                " length=" + length;
            return fields;
        }
        fields.pingTimeoutSeconds = in.getUnsignedByte(position++);
        position++; // session flags: the server decides (both directions ping)
        fields.protocolType = in.getUnsignedByte(position++);
        fields.majorVersion = in.getUnsignedByte(position++);
        fields.minorVersion = in.getUnsignedByte(position++);

        fields.hostName = readString(in, position, headerEnd);
        if (null == fields.hostName)
        {
            fields.error = "ConnectReq host name overruns headerLength=" + headerLength;
            return fields;
        }
        position += 1 + fields.hostName.length();
        fields.ipAddress = readString(in, position, headerEnd);
        if (null == fields.ipAddress)
        {
            fields.error = "ConnectReq IP address overruns headerLength=" + headerLength;
            return fields;
        }

        final int end = start + length;
        if (headerEnd + 2 > end)
        {
            fields.error = "ConnectReq without component container, length=" + length;
            return fields;
        }
        final int containerLength = in.getUnsignedByte(headerEnd);
        final int trailing = end - (headerEnd + 1 + containerLength); // ETA tolerates a trailing CR LF
        if (trailing < 0 || trailing > 2)
        {
            fields.error = "ConnectReq headerLength=" + headerLength + " + container=" + containerLength +
                " + 1 != length=" + length;
            return fields;
        }
        fields.component = readString(in, headerEnd + 1, headerEnd + 1 + containerLength);
        if (null == fields.component)
        {
            fields.error = "ConnectReq component overruns its container";
        }
        return fields;
    }

    private static String readString(final ByteBuf in, final int lengthIndex, final int limit)
    {
        if (lengthIndex >= limit)
        {
            return null;
        }
        final int length = in.getUnsignedByte(lengthIndex);
        if (lengthIndex + 1 + length > limit)
        {
            return null;
        }
        return in.toString(lengthIndex + 1, length, StandardCharsets.ISO_8859_1);
    }

    /**
     * The parsed ConnectReq, allocated once per handshake (not on a hot path).
     */
    private static final class ConnectReqFields
    {
        private String error;
        private int pingTimeoutSeconds;
        private int protocolType;
        private int majorVersion;
        private int minorVersion;
        private String hostName = "";
        private String ipAddress = "";
        private String component = "";
    }
}
