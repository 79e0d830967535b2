package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.PostMsg;
import com.refinitiv.eta.codec.PostMsgFlags;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.UpdateEventTypes;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaChannel;
import io.mdhub.common.test.eta.EtaInteractiveProvider;
import io.mdhub.common.test.eta.EtaInteractiveProvider.ReceivedPost;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.common.test.eta.EtaNiProvider;

/**
 * Posts to a mounted interactive provider (a real ETA provider): a consumer's post, as {@link ItemPosts} takes it from
 * the backbone, goes on the route stream that has the item open (on-stream) or on the route's login stream with a key
 * naming the provider's service and the item (off-stream), with a distributor postId and the ACK flag and the rest of
 * the consumer's PostMsg unchanged; the provider's ACK or NAK, its silence (NO_RESPONSE after the timeout) or the
 * loss of its connection (SOURCE_DOWN) comes back as one {@link DistributorListener#onPostAck} for the poster.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class RoutePostTest
{
    private static final String SERVICE = "POST_SVC";
    private static final int PROVIDER_SERVICE_ID = 7;
    private static final int CONSUMER_ID = 42;
    private static final int SOURCE_INDEX = 3;
    private static final long CONSUMER_POST_ID = 77;
    private static final long SEQ_NUM = 1234;
    private static final byte[] PERM_DATA = {0x03, 0x01, 0x2C, 0x56};

    private final AckListener listener = new AckListener();
    private EtaInteractiveProvider provider;
    private EtaNiProvider nip;
    private Distributor distributor;
    private int serviceId;

    /**
     * One onPostAck.
     */
    record Ack(int consumerId, int sourceIndex, long postRequestId, int serviceId, int nakCode, String text)
    {
    }

    static final class AckListener implements DistributorListener
    {
        final LinkedBlockingQueue<Ack> acks = new LinkedBlockingQueue<>();

        @Override
        public void onPostAck(
            final int consumerId,
            final int sourceIndex,
            final long postRequestId,
            final int serviceId,
            final int nakCode,
            final String text)
        {
            acks.add(new Ack(consumerId, sourceIndex, postRequestId, serviceId, nakCode, text));
        }

        Ack await()
        {
            Ack ack;
            while (null == (ack = acks.poll()))
            {
                MdTests.idle(() -> "an onPostAck");
            }
            return ack;
        }
    }

    @AfterEach
    void close()
    {
        CloseHelper.closeAll(nip, distributor, provider);
    }

    @Test
    void aPostToAnOpenItemGoesOnItsStreamAndTheProvidersAckAndNakComeBack()
    {
        launch(DistributorConfiguration.ROUTE_POST_TIMEOUT_DEFAULT_NS);
        final int itemStream = open("IBM.N");

        assertEquals(SinkDrivenItems.POST_FORWARDED, post(101, "IBM.N", 10_050));
        final ReceivedPost received = provider.awaitPost();
        assertEquals(itemStream, received.streamId(), "on-stream: on the route's stream of the item");
        assertNull(received.keyName(), "an on-stream post needs no key: " + received);
        assertConsumersPost(received, 10_050);
        assertEquals(new Ack(CONSUMER_ID, SOURCE_INDEX, 101, serviceId, NakCodes.NONE, ""), listener.await());

        provider.answerPosts(NakCodes.ACCESS_DENIED, "not entitled to post");
        assertEquals(SinkDrivenItems.POST_FORWARDED, post(102, "IBM.N", 10_060));
        final ReceivedPost nakked = provider.awaitPost();
        assertEquals(itemStream, nakked.streamId());
        assertNotEquals(received.postId(), nakked.postId(), "every forwarded post has its own postId");
        assertEquals(new Ack(CONSUMER_ID, SOURCE_INDEX, 102, serviceId, NakCodes.ACCESS_DENIED,
            "not entitled to post"), listener.await());
        assertEquals(0, outstanding());
        assertEquals(1, onEventLoop(() -> distributor.context().core().counters.postsRefused().get()));
    }

    @Test
    void aPostToAnItemNotOpenGoesOffStreamWithTheProvidersServiceId()
    {
        launch(DistributorConfiguration.ROUTE_POST_TIMEOUT_DEFAULT_NS);
        assertEquals(SinkDrivenItems.POST_FORWARDED, post(201, "NEW.N", 10_070));
        final ReceivedPost received = provider.awaitPost();
        assertEquals(1, received.streamId(), "off-stream: on the route's login stream");
        assertEquals("NEW.N", received.keyName());
        assertEquals(PROVIDER_SERVICE_ID, received.keyServiceId(), "the provider's own service id");
        assertConsumersPost(received, 10_070);
        assertEquals(0, provider.openStreams(), "posting opens no item");
        assertEquals(new Ack(CONSUMER_ID, SOURCE_INDEX, 201, serviceId, NakCodes.NONE, ""), listener.await());
    }

    @Test
    void aPostTheProviderNeverAnswersIsRefusedNoResponseAfterTheTimeout() throws InterruptedException
    {
        launch(TimeUnit.MILLISECONDS.toNanos(500));
        open("IBM.N");
        provider.answerPostsNever();
        final long startNs = System.nanoTime();
        assertEquals(SinkDrivenItems.POST_FORWARDED, post(301, "IBM.N", 10_080));
        final ReceivedPost received = provider.awaitPost();
        assertEquals(1, outstanding());
        final Ack ack = listener.await();
        final long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        assertEquals(new Ack(CONSUMER_ID, SOURCE_INDEX, 301, serviceId, NakCodes.NO_RESPONSE,
            "no answer from the provider within 500 ms"), ack);
        assertTrue(waitedMs >= 450, "answered after the timeout, not before: " + waitedMs + " ms");
        assertEquals(0, outstanding());

        // the provider's late answer finds no post waiting: dropped, and the poster hears nothing more
        final long dropped = onEventLoop(() -> distributor.context().core().counters.messagesDropped().get());
        provider.answer(received, NakCodes.NONE, "");
        MdTests.await("the late ACK dropped", () -> dropped + 1 ==
            onEventLoop(() -> distributor.context().core().counters.messagesDropped().get()));
        assertNull(listener.acks.poll(200, TimeUnit.MILLISECONDS));
    }

    @Test
    void theLossOfTheRouteRefusesItsUnansweredPostsSourceDown()
    {
        launch(DistributorConfiguration.ROUTE_POST_TIMEOUT_DEFAULT_NS);
        open("IBM.N");
        provider.answerPostsNever();
        assertEquals(SinkDrivenItems.POST_FORWARDED, post(401, "IBM.N", 10_090));
        assertEquals(SinkDrivenItems.POST_FORWARDED, post(402, "OTHER.N", 10_091));
        provider.awaitPost();
        provider.awaitPost();

        provider.close();
        final Ack first = listener.await();
        final Ack second = listener.await();
        assertEquals(new Ack(CONSUMER_ID, SOURCE_INDEX, 401, serviceId, NakCodes.SOURCE_DOWN,
            "provider connection lost"), first);
        assertEquals(402, second.postRequestId());
        assertEquals(NakCodes.SOURCE_DOWN, second.nakCode());

        // with no route up a post is refused at once
        MdTests.await("the route is down", () -> onEventLoop(() ->
            null == distributor.context().core().directory.service(SERVICE).pickLink(false)));
        assertEquals(NakCodes.SOURCE_DOWN, post(403, "IBM.N", 10_092));
        final Ack refused = listener.await();
        assertEquals(403, refused.postRequestId());
        assertEquals(NakCodes.SOURCE_DOWN, refused.nakCode());
        assertEquals(0, outstanding());
    }

    @Test
    void aMalformedPostIsRefusedInvalidContent()
    {
        launch(DistributorConfiguration.ROUTE_POST_TIMEOUT_DEFAULT_NS);
        final byte[] update = update(1);
        assertEquals(NakCodes.INVALID_CONTENT, post(501, "IBM.N", update));
        final Ack ack = listener.await();
        assertEquals(501, ack.postRequestId());
        assertEquals(NakCodes.INVALID_CONTENT, ack.nakCode());
        assertNull(provider.pollPost(200));
    }

    // ------------------------------------------------------------------ helpers

    /**
     * A distributor mounting the provider, whose service id a non-interactive provider's service took first: the
     * distributor numbers the mounted service otherwise, and posts must name the provider's own id.
     */
    private void launch(final long postTimeoutNs)
    {
        final int port = MdTests.unusedPort();
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName("route-post-distributor")
            .registerMBean(false)
            .routes("127.0.0.1:" + port)
            .routeReconnectMs(100)
            .routePostTimeoutNs(postTimeoutNs)
            .listener(listener));
        nip = EtaNiProvider.connect(distributor.port());
        nip.login("nip");
        nip.publishDirectory(PROVIDER_SERVICE_ID, "NI_SVC");
        MdTests.await("the non-interactive service", () -> onEventLoop(() ->
            null != distributor.context().core().directory.service("NI_SVC")));
        provider = EtaInteractiveProvider.start(PROVIDER_SERVICE_ID, SERVICE, port);
        MdTests.await(() -> "the route mounted: " + Arrays.toString(distributor.mxBean().getConnections()), () ->
            Arrays.stream(distributor.mxBean().getConnections())
                .anyMatch((line) -> line.contains("kind=route") && line.contains("services=1")));
        serviceId = onEventLoop(() -> distributor.context().core().directory.service(SERVICE).id());
        assertNotEquals(PROVIDER_SERVICE_ID, serviceId, "the distributor renumbered the mounted service");
    }

    /**
     * Open an item upstream, as a backbone request would, and wait for its refresh.
     *
     * @return the route's stream of the item.
     */
    private int open(final String name)
    {
        final UnsafeBuffer nameBuffer = new UnsafeBuffer(name.getBytes(StandardCharsets.US_ASCII));
        onEventLoop(() ->
        {
            final DistributorCore core = distributor.context().core();
            final int result = core.sinkItems.request(SinkDrivenItems.watcher(CONSUMER_ID, SOURCE_INDEX), 1,
                core.directory.service(SERVICE), DomainTypes.MARKET_PRICE, true, nameBuffer, 0,
                nameBuffer.capacity(), null);
            core.sinkItems.flush();
            return result;
        });
        MdTests.await("the item's refresh", () -> onEventLoop(() ->
        {
            final ItemCache cache = distributor.context().core().directory.service(SERVICE).cache();
            final int handle = cache.handle(DomainTypes.MARKET_PRICE, nameBuffer, 0, nameBuffer.capacity());
            return ItemCache.NO_HANDLE != handle && cache.item(handle).isRefreshComplete();
        }));
        return onEventLoop(() ->
        {
            final ItemCache cache = distributor.context().core().directory.service(SERVICE).cache();
            return cache.item(cache.handle(DomainTypes.MARKET_PRICE, nameBuffer, 0, nameBuffer.capacity()))
                .providerStreamId;
        });
    }

    /**
     * Post an update with BID = bid, as a p2p-server's ItemPost hands it over, and flush as the backbone cycle does.
     *
     * @return the synchronous outcome: {@link SinkDrivenItems#POST_FORWARDED} or the NakCode sent.
     */
    private int post(final long postRequestId, final String name, final long bid)
    {
        return post(postRequestId, name, consumersPost(bid));
    }

    private int post(final long postRequestId, final String name, final byte[] rwf)
    {
        final byte[] nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        final int rwfOffset = nameBytes.length + 5; // not at 0: offsets must be honoured
        final ByteBuffer bytes = ByteBuffer.allocateDirect(rwfOffset + rwf.length);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        buffer.putBytes(0, nameBytes);
        buffer.putBytes(rwfOffset, rwf);
        final int before = listener.acks.size();
        return onEventLoop(() ->
        {
            final DistributorCore core = distributor.context().core();
            core.posts.onPost(CONSUMER_ID, SOURCE_INDEX, postRequestId, core.directory.service(SERVICE),
                DomainTypes.MARKET_PRICE, buffer, 0, nameBytes.length, rwfOffset, rwf.length);
            core.sinkItems.flush();
            final boolean isRefused = listener.acks.size() > before;
            return isRefused ? lastNakCode() : SinkDrivenItems.POST_FORWARDED;
        });
    }

    private int lastNakCode()
    {
        Ack last = null;
        for (final Ack ack : listener.acks)
        {
            last = ack;
        }
        return last.nakCode();
    }

    /**
     * The consumer's PostMsg as it sent it (on its own stream 5, keyless): postId, seqNum, partNum, permData,
     * postUserInfo and rights, asking for an ACK, carrying an UpdateMsg.
     */
    private static byte[] consumersPost(final long bid)
    {
        final PostMsg post = (PostMsg)CodecFactory.createMsg();
        post.msgClass(MsgClasses.POST);
        post.domainType(DomainTypes.MARKET_PRICE);
        post.streamId(5);
        post.containerType(DataTypes.MSG);
        post.flags(PostMsgFlags.HAS_POST_ID | PostMsgFlags.HAS_SEQ_NUM | PostMsgFlags.POST_COMPLETE |
            PostMsgFlags.ACK | PostMsgFlags.HAS_PERM_DATA | PostMsgFlags.HAS_PART_NUM |
            PostMsgFlags.HAS_POST_USER_RIGHTS);
        post.postId(CONSUMER_POST_ID);
        post.seqNum(SEQ_NUM);
        post.partNum(0);
        post.permData(buffer(PERM_DATA));
        post.postUserRights(1);
        post.postUserInfo().userAddr(0x7F000001L);
        post.postUserInfo().userId(4321);
        post.encodedDataBody(buffer(update(bid)));
        return EtaChannel.encode(post::encode);
    }

    private static byte[] update(final long bid)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(0);
        update.containerType(DataTypes.FIELD_LIST);
        update.updateType(UpdateEventTypes.QUOTE);
        update.encodedDataBody(buffer(new EtaFieldLists().begin(0, 0).real(FieldIds.BID, bid, 12).end()));
        return EtaChannel.encode(update::encode);
    }

    private static void assertConsumersPost(final ReceivedPost received, final long bid)
    {
        assertEquals(DomainTypes.MARKET_PRICE, received.domainType());
        assertTrue(received.isAckRequested(), received::toString);
        assertTrue(received.postId() > 0, received::toString);
        assertNotEquals(CONSUMER_POST_ID, received.postId(), "the distributor's own postId");
        assertEquals(SEQ_NUM, received.seqNum());
        assertEquals(0, received.partNum());
        assertEquals(0x7F000001L, received.postUserAddress());
        assertEquals(4321, received.postUserId());
        assertEquals(1, received.postUserRights());
        assertArrayEquals(PERM_DATA, received.permData());
        assertTrue(0 != (received.flags() & PostMsgFlags.POST_COMPLETE), received::toString);
        final EtaMessage update = received.message();
        assertEquals(MsgClasses.UPDATE, update.msgClass(), update::toString);
        assertEquals(bid, update.mantissa(FieldIds.BID));
    }

    private int outstanding()
    {
        return onEventLoop(() -> distributor.context().core().sinkItems.postsOutstanding());
    }

    private <T> T onEventLoop(final Callable<T> task)
    {
        try
        {
            return distributor.context().eventLoop().submit(task).get(5, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new AssertionError("on the event loop", ex);
        }
    }

    private static Buffer buffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        return buffer;
    }
}
