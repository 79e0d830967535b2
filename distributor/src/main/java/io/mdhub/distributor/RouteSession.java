package io.mdhub.distributor;

import org.agrona.DirectBuffer;

import com.refinitiv.eta.codec.CloseMsg;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.RequestMsg;
import com.refinitiv.eta.codec.RequestMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;

import io.mdhub.common.ripc.RipcFrameEncoder;
import io.mdhub.common.rwf.FieldView;
import io.mdhub.common.rwf.eta.ViewRequestEncoder;
import io.netty.buffer.ByteBuf;

/**
 * A connection the distributor opened to an interactive provider (a route, as RMDS's Source Distributor mounted its
 * publishers): the {@link ProviderLink} that logs in as a consumer, asks for the provider's source directory
 * (streaming, so service state changes arrive), and then requests, reissues and closes item streams on behalf of the
 * backbone ({@link SinkDrivenItems}). Stream ids are the distributor's own, positive, from {@link #FIRST_ITEM_STREAM};
 * the provider's refreshes, updates and statuses on them go through the same {@link ItemFeed} as pushed data.
 * Consumers' posts are written here by {@link RoutePosts}, and the provider's AckMsgs, on any stream, go back to it.
 */
final class RouteSession extends ProviderLink
{
    static final int LOGIN_STREAM = 1;
    static final int DIRECTORY_STREAM = 2;
    static final int FIRST_ITEM_STREAM = 5;

    private static final int ADMIN_CAPACITY = 1024;
    private static final int REQUEST_HEADROOM = 128;

    private final RouteEndpoint endpoint;
    private final RequestMsg request = (RequestMsg)CodecFactory.createMsg();
    private final CloseMsg close = (CloseMsg)CodecFactory.createMsg();
    private final ViewRequestEncoder viewEncoder = new ViewRequestEncoder();
    private int nextStreamId = FIRST_ITEM_STREAM;

    RouteSession(final DistributorCore core, final RouteEndpoint endpoint)
    {
        super(core);
        this.endpoint = endpoint;
    }

    @Override
    String kind()
    {
        return "mounted (route " + endpoint + ")";
    }

    @Override
    boolean isRoute()
    {
        return true;
    }

    @Override
    void onActive()
    {
        final LoginRequest login = (LoginRequest)LoginMsgFactory.createMsg();
        login.rdmMsgType(LoginMsgType.REQUEST);
        login.initDefaultRequest(LOGIN_STREAM);
        login.userName().data(endpoint.userName());
        login.applyHasAttrib();
        login.attrib().applyHasApplicationName();
        login.attrib().applicationName().data("MDHub distributor " + core.component);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), ADMIN_CAPACITY);
        if (finish(buf, login.encode(core.writer.begin(buf, buf.writerIndex(), buf.writableBytes())), "login"))
        {
            write(buf);
            flushIfNeeded();
        }
    }

    @Override
    void onMessage(final ByteBuf message, final DirectBuffer buffer)
    {
        final int domainType = core.msg.domainType();
        if (MsgClasses.ACK == core.msg.msgClass() && isLoggedIn)
        {
            onAck(message);
        }
        else if (DomainTypes.LOGIN == domainType)
        {
            onLogin();
        }
        else if (!isLoggedIn)
        {
            disconnect(ProviderDisconnectReason.NOT_LOGGED_IN, "domain " + domainType + " before the login");
        }
        else if (DomainTypes.SOURCE == domainType)
        {
            if (MsgClasses.STATUS == core.msg.msgClass())
            {
                return; // directory stream state; the services' own state arrives in refreshes and updates
            }
            core.directoryFeed.onMessage(this, message);
        }
        else
        {
            core.items.onMessage(this, message, buffer);
        }
    }

    /**
     * The provider's answer to a forwarded post, on the login stream (off-stream) or an item stream (on-stream).
     */
    private void onAck(final ByteBuf message)
    {
        if (CodecReturnCodes.SUCCESS != core.reader.read(message, message.readerIndex(), message.readableBytes()))
        {
            core.counters.messagesDropped().increment();
            return;
        }
        core.sinkItems.onPostAck(this);
    }

    private void onLogin()
    {
        final int msgClass = core.msg.msgClass();
        final boolean hasState = MsgClasses.REFRESH == msgClass || MsgClasses.STATUS == msgClass;
        if (hasState && core.msg.hasState() && StreamStates.OPEN != core.msg.streamState())
        {
            disconnect(ProviderDisconnectReason.PROVIDER_REFUSED_LOGIN, "login stream state " +
                StreamStates.toString(core.msg.streamState()));
            return;
        }
        if (MsgClasses.CLOSE == msgClass)
        {
            disconnect(ProviderDisconnectReason.PROVIDER_REFUSED_LOGIN, "login stream closed");
            return;
        }
        if (MsgClasses.REFRESH == msgClass && !isLoggedIn)
        {
            loggedIn(endpoint.userName());
            requestDirectory();
        }
    }

    private void requestDirectory()
    {
        final DirectoryRequest directory = (DirectoryRequest)DirectoryMsgFactory.createMsg();
        directory.rdmMsgType(DirectoryMsgType.REQUEST);
        directory.streamId(DIRECTORY_STREAM);
        directory.applyStreaming();
        directory.filter(Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE |
            Directory.ServiceFilterFlags.GROUP);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), ADMIN_CAPACITY);
        if (finish(buf, directory.encode(core.writer.begin(buf, buf.writerIndex(), buf.writableBytes())),
            "directory request"))
        {
            write(buf);
        }
    }

    /**
     * Open a new stream for the item (streaming; the provider answers with a refresh) and bind it to this connection.
     *
     * @return false if the request could not be encoded (the item stays unbound).
     */
    boolean open(final CachedItem item)
    {
        final int streamId = nextStreamId;
        nextStreamId = nextStreamId == Integer.MAX_VALUE ? FIRST_ITEM_STREAM : nextStreamId + 1;
        if (!sendRequest(item, streamId))
        {
            return false;
        }
        item.owner = this;
        item.providerStreamId = streamId;
        bind(streamId, item);
        return true;
    }

    /**
     * Ask again on the item's open stream: the provider answers with a solicited refresh.
     */
    boolean reissue(final CachedItem item)
    {
        return sendRequest(item, item.providerStreamId);
    }

    /**
     * Close the item's stream and unbind it from this connection.
     */
    void close(final CachedItem item)
    {
        close.clear();
        close.msgClass(MsgClasses.CLOSE);
        close.domainType(item.domainType());
        close.streamId(item.providerStreamId);
        close.containerType(DataTypes.NO_DATA);
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), REQUEST_HEADROOM);
        if (finish(buf, close.encode(core.writer.begin(buf, buf.writerIndex(), buf.writableBytes())), "close"))
        {
            write(buf);
        }
        unbind(item.providerStreamId);
        item.owner = null;
    }

    /**
     * Write a consumer's post, already rewritten for this connection (stream, postId, key). A post that cannot be
     * encoded is the consumer's fault: nothing is written and the connection stays up.
     *
     * @param post     the post, decoded and rewritten.
     * @param capacity room enough for it.
     * @return an ETA {@code CodecReturnCodes} value, SUCCESS when written.
     */
    int writePost(final Msg post, final int capacity)
    {
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), capacity);
        final int result = post.encode(core.writer.begin(buf, buf.writerIndex(), buf.writableBytes()));
        if (CodecReturnCodes.SUCCESS != result)
        {
            buf.release();
            return result;
        }
        buf.writerIndex(buf.writerIndex() + core.writer.encodedLength());
        write(buf);
        return result;
    }

    private boolean sendRequest(final CachedItem item, final int streamId)
    {
        final int providerServiceId = providerServiceId(item.service());
        if (providerServiceId < 0)
        {
            return false;
        }
        final int nameLength = item.nameBuffer().capacity();
        request.clear();
        request.msgClass(MsgClasses.REQUEST);
        request.domainType(item.domainType());
        request.streamId(streamId);
        request.containerType(DataTypes.NO_DATA);
        request.flags(null != item.interest && item.interest.isPrivate ?
            RequestMsgFlags.STREAMING | RequestMsgFlags.PRIVATE_STREAM : RequestMsgFlags.STREAMING);
        request.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        request.msgKey().serviceId(providerServiceId);
        request.msgKey().nameType(InstrumentNameTypes.RIC);
        request.msgKey().name().data(item.nameByteBuffer(), 0, nameLength);
        final FieldView view = null == item.interest ? null : item.interest.upstreamView;
        final int capacity = REQUEST_HEADROOM + nameLength + (null == view ? 0 : 32 + 3 * view.size());
        final ByteBuf buf = RipcFrameEncoder.newMessageBuffer(ctx.alloc(), capacity);
        final EncodeIterator iterator = core.writer.begin(buf, buf.writerIndex(), buf.writableBytes());
        final int result;
        if (null == view)
        {
            result = request.encode(iterator);
        }
        else
        {
            // the union of the watchers' views: the provider sends only those fields
            request.applyHasView();
            request.containerType(DataTypes.ELEMENT_LIST);
            final int init = request.encodeInit(iterator, 0);
            final int payload = init < CodecReturnCodes.SUCCESS ? init : viewEncoder.encode(iterator, view);
            result = payload < CodecReturnCodes.SUCCESS ? payload : request.encodeComplete(iterator, true);
        }
        if (!finish(buf, result, "request"))
        {
            return false;
        }
        write(buf);
        return true;
    }

    private boolean finish(final ByteBuf buf, final int result, final String what)
    {
        if (CodecReturnCodes.SUCCESS != result)
        {
            buf.release();
            disconnect(ProviderDisconnectReason.REENCODE_FAILED, what + ": " + CodecReturnCodes.toString(result));
            return false;
        }
        buf.writerIndex(buf.writerIndex() + core.writer.encodedLength());
        return true;
    }

    @Override
    void onInactive()
    {
        core.sinkItems.routeLost(this);
        core.sinkItems.rehome();
        endpoint.onDisconnected();
    }

    /**
     * @return where this connection goes.
     */
    RouteEndpoint endpoint()
    {
        return endpoint;
    }
}
