package io.mdhub.p2p.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import javax.management.JMX;
import javax.management.MBeanServer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.mdhub.common.codecs.order.CatchUpRequestDecoder;
import io.mdhub.common.codecs.order.MessageHeaderEncoder;
import io.mdhub.common.codecs.order.OrderRecordDecoder;
import io.mdhub.common.codecs.order.OrderRecordEncoder;
import io.mdhub.common.codecs.order.PartitionRole;
import io.mdhub.common.codecs.order.RejectReason;
import io.mdhub.common.codecs.order.ReplicateAckDecoder;
import io.mdhub.common.codecs.order.ReplicateOrderDecoder;
import io.mdhub.common.codecs.order.SubmitOrderEncoder;
import io.mdhub.common.metrics.MBeans;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;

/**
 * Behaviour of the order service beyond the happy path: sequence gaps on a backup, the MXBean over the platform
 * MBeanServer, callbacks loaded by class name, post-processing of orders completed on a takeover, acknowledgements
 * while the peer catches up, bad input from one client next to a good one, orders from a client without a hello,
 * and the sink's flush gating the drained position.
 */
@InterruptAfter(120)
class OrderServiceTest
{
    private static final int PARTITIONS = TestOrderPair.PARTITIONS;

    @TempDir
    Path dir;

    private TestOrderPair pair;

    @BeforeEach
    void createPair()
    {
        pair = new TestOrderPair(dir);
    }

    @AfterEach
    void close()
    {
        pair.close();
    }

    /**
     * Start the pair with these system properties set (the servers read them as they launch), then clear them.
     */
    private void startWith(final Map<String, String> properties)
    {
        properties.forEach(System::setProperty);
        try
        {
            pair.start();
        }
        finally
        {
            properties.keySet().forEach(System::clearProperty);
        }
    }

    private long gaps(final int server)
    {
        long gaps = 0;
        for (int p = 0; p < PARTITIONS; p++)
        {
            gaps += pair.partitionField(server, p, "gaps");
        }
        return gaps;
    }

    /**
     * A replicated order lost on the way to the backup: the backup sees the next one out of sequence, counts a gap
     * and asks the primary again; nothing is stored out of order and every order is acknowledged as replicated.
     */
    @Test
    void gapOnABackupIsCountedAndFilledFromThePrimary() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 20);
        assertEquals(0, gaps(1));
        pair.servers[0].losePeerMessages(ReplicateOrderDecoder.TEMPLATE_ID, 1);
        pair.submitAndAwait(21, 60);
        assertTrue(gaps(1) >= 1, pair::states);
        assertTrue(pair.servers[1].counters().gaps.get() >= 1);
        assertEquals(0, gaps(0));
        for (long id = 21; id <= 60; id++)
        {
            assertTrue(pair.client.acks.get(id).replicated(), "stored on both before the ack");
        }
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    @Test
    void mxBeansAreRegisteredAndReadOverThePlatformMBeanServer()
    {
        pair.launch(0, (ctx) -> ctx.registerMBean(true));
        pair.launch(1, (ctx) -> ctx.registerMBean(true));
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 20);

        final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        assertTrue(server.isRegistered(MBeans.objectName("OrderService", "server-0")));
        final OrderServiceMXBean zero = JMX.newMXBeanProxy(server, MBeans.objectName("OrderService", "server-0"),
            OrderServiceMXBean.class);
        final OrderServiceMXBean one = JMX.newMXBeanProxy(server, MBeans.objectName("OrderService", "server-1"),
            OrderServiceMXBean.class);
        assertEquals("SERVING", zero.getState());
        assertEquals(PARTITIONS, zero.getPartitions().length);
        assertTrue(zero.getPartitions()[0].startsWith("partition=0 role=PRIMARY"), zero.getPartitions()[0]);
        assertTrue(zero.getPartitions()[1].startsWith("partition=1 role=BACKUP"), zero.getPartitions()[1]);
        assertTrue(zero.isReplicationLinkUp());
        // the backups answer the client; each primary completes its orders when the backup's ack reaches it
        MdTests.await("server 0 is primary of partitions 0 and 2: half the orders completed on each",
            () -> 10 == zero.getOrdersAcked() && 10 == one.getOrdersAcked());
        assertEquals(0, zero.getGaps());
        assertEquals(0, zero.getFailovers());
        assertEquals(0, zero.getMalformed());
        assertEquals(0, zero.getForcedTakeovers());
        assertFalse(zero.isPeerDeclaredDead());
        // a first connect may have found server 1 not listening yet (refused: DOWN); the fence retries in 100 ms
        MdTests.await(() -> "server 0's fence up: " + zero.getFenceState(),
            () -> zero.getFenceState().startsWith("UP"));
        assertEquals("PAIRED", zero.getStanding());
        assertFalse(zero.isSteppingDown());

        zero.stepDown(true);
        assertTrue(zero.isSteppingDown());
        pair.awaitRoles("server 1 primary of everything", () -> pair.allPrimaryOn(1));
        zero.stepDown(false);
        pair.awaitRoles("each server primary of half again", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(21, 40);
        pair.stop(0);
        assertFalse(server.isRegistered(MBeans.objectName("OrderService", "server-0")), "unregistered on close");
    }

    /**
     * Counts every order it sees and delegates to the FIX pre-processor; loaded by class name.
     */
    public static final class CountingPreProcessor implements OrderPreProcessor
    {
        static final AtomicInteger CALLS = new AtomicInteger();
        private final FixOrderPreProcessor fix = new FixOrderPreProcessor();

        @Override
        public RejectReason preProcess(
            final DirectBuffer order, final int offset, final int length, final OrderRecordEncoder record)
        {
            CALLS.incrementAndGet();
            return fix.preProcess(order, offset, length, record);
        }

        @Override
        public String lastRejectText()
        {
            return fix.lastRejectText();
        }
    }

    /**
     * Records (partition/sequence) of every order it sees; loaded by class name.
     */
    public static final class RecordingPostProcessor implements OrderPostProcessor
    {
        static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

        @Override
        public void postProcess(final OrderRecordDecoder record)
        {
            SEEN.add(record.partition() + "/" + record.sequence());
        }
    }

    @Test
    void preAndPostProcessorsAreLoadedByClassNameFromConfiguration()
    {
        CountingPreProcessor.CALLS.set(0);
        RecordingPostProcessor.SEEN.clear();
        startWith(Map.of(
            OrderServiceConfiguration.PRE_PROCESSOR_PROP_NAME, CountingPreProcessor.class.getName(),
            OrderServiceConfiguration.POST_PROCESSOR_PROP_NAME, RecordingPostProcessor.class.getName()));
        pair.submitAndAwait(1, 40);
        assertTrue(CountingPreProcessor.CALLS.get() >= 40, "every new order pre-processed");
        // the backup answers the client; the primary post-processes when the backup's ack reaches it
        MdTests.await("every acknowledged order post-processed", () -> pair.client.acks.values().stream()
            .allMatch(ack -> RecordingPostProcessor.SEEN.contains(ack.partition() + "/" + ack.sequence())));
    }

    /**
     * With the backup answering (the default) every order is answered by the server that is its partition's
     * backup, once, and nothing is left for the primary to answer.
     */
    @Test
    void theBackupAnswersEachOrderOnceItHasStoredIt()
    {
        pair.start();
        pair.submitAndAwait(1, 40);
        MdTests.await("every order completed on its primary", () -> 40 ==
            pair.servers[0].counters().ordersAcked.get() + pair.servers[1].counters().ordersAcked.get());
        pair.pollFor(100_000_000L);
        final long answeredByBackups = pair.servers[0].counters().answersForPeer.get() +
            pair.servers[1].counters().answersForPeer.get();
        assertTrue(pair.servers[0].counters().answersForPeer.get() > 0, "server 0 backs up half the partitions");
        assertTrue(pair.servers[1].counters().answersForPeer.get() > 0, "server 1 backs up the other half");
        assertEquals(40, answeredByBackups, "every new order answered by its backup");
        assertEquals(0, pair.servers[0].counters().answerRequests.get() +
            pair.servers[1].counters().answerRequests.get());
        final long acks = pair.client.answers.stream().filter(TestOrderClient.Answer::isAck).count();
        final long resends = pair.client.answers.stream().filter(TestOrderClient.Answer::duplicate).count();
        assertEquals(40 + resends, acks, "one ack per order (and per resend)");
        pair.assertEachOrderOnceWithContiguousSequences();
    }

    /**
     * A client that sends an order again after the backup answered it, but before the primary heard the backup's
     * ack, still gets an answer: the original ack, as a duplicate, once the order completes on the primary.
     */
    @Test
    void aResendBetweenTheBackupsAnswerAndTheCompletionIsAnsweredAsADuplicate()
    {
        pair.start();
        final TestOrderClient client = pair.client;
        final int backup = 1 - client.primaryOf(0);
        pair.servers[backup].losePeerMessages(ReplicateAckDecoder.TEMPLATE_ID, Integer.MAX_VALUE);
        MdTests.await("order 1 submitted", () -> client.submit(1, 0, -1));
        MdTests.await("answered by the backup", () ->
        {
            client.poll();
            return client.acks.containsKey(1L);
        });
        MdTests.await("order 1 sent again", () -> client.submit(1, 0, -1));
        pair.pollFor(200_000_000L);
        assertEquals(1, client.answers.size(), "the primary has not completed it: nothing to say yet");

        pair.servers[backup].losePeerMessages(ReplicateAckDecoder.TEMPLATE_ID, 0);
        MdTests.await("order 2 submitted", () -> client.submit(2, 0, -1)); // its ack from the backup covers 1 too
        MdTests.await("the resend answered", () ->
        {
            client.poll();
            return client.answers.stream().filter(a -> 1L == a.orderId()).count() == 2;
        });
        final TestOrderClient.Answer resend = client.answers.stream().filter(a -> 1L == a.orderId()).skip(1)
            .findFirst().orElseThrow();
        assertTrue(resend.isAck() && resend.duplicate(), resend::toString);
        assertEquals(client.acks.get(1L).sequence(), resend.sequence());
    }

    /**
     * A backup asked to answer a client it has not heard from asks the primary to answer instead: the client
     * hears at once, not after its ack timeout (this client never resends).
     */
    @Test
    void aBackupThatDoesNotKnowTheClientHasThePrimaryAnswer()
    {
        pair.start();
        final int primary = pair.client.primaryOf(0);
        final TestOrderClient stranger = pair.newClient(79);
        try
        {
            MdTests.await("hello to the primary only", () ->
            {
                stranger.hello(primary);
                stranger.poll();
                return PartitionRole.PRIMARY == stranger.role(primary, 0);
            });
            MdTests.await("order submitted", () -> stranger.submit(1, 0, primary));
            MdTests.await("acknowledged", () ->
            {
                stranger.poll();
                return stranger.acks.containsKey(1L);
            });
            assertTrue(stranger.acks.get(1L).replicated());
            assertEquals(1, pair.servers[1 - primary].counters().answerRequests.get(), "the backup asked");
            assertEquals(0, pair.servers[1 - primary].counters().answersForPeer.get());
        }
        finally
        {
            stranger.close();
        }
    }

    /**
     * With {@code mdhub.order.backup.answers=false} the primary answers, and only after it has post-processed the
     * order.
     */
    @Test
    void withoutBackupAnswersThePrimaryAnswersAfterPostProcessing()
    {
        RecordingPostProcessor.SEEN.clear();
        startWith(Map.of(
            OrderServiceConfiguration.POST_PROCESSOR_PROP_NAME, RecordingPostProcessor.class.getName(),
            OrderServiceConfiguration.BACKUP_ANSWERS_PROP_NAME, "false"));
        pair.submitAndAwait(1, 40);
        for (final TestOrderClient.Answer ack : pair.client.acks.values())
        {
            assertTrue(RecordingPostProcessor.SEEN.contains(ack.partition() + "/" + ack.sequence()),
                () -> "post-processed before its ack: " + ack);
        }
        assertEquals(0, pair.servers[0].counters().answersForPeer.get() +
            pair.servers[1].counters().answersForPeer.get());
        pair.assertEachOrderOnceWithContiguousSequences();
    }

    /**
     * Records what it post-processes; once stalled it blocks the order thread (the server "hangs" in the callback)
     * until the thread is interrupted by the server's close, and then fails: that order was never post-processed
     * there.
     */
    static final class StallingPostProcessor implements OrderPostProcessor
    {
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        volatile boolean isStalled;
        volatile boolean hasStalled;

        @Override
        public void postProcess(final OrderRecordDecoder record)
        {
            if (isStalled)
            {
                hasStalled = true;
                while (!Thread.currentThread().isInterrupted())
                {
                    LockSupport.parkNanos(1_000_000L);
                }
                throw new IllegalStateException("test: server killed while post-processing");
            }
            seen.add(record.partition() + "/" + record.sequence());
        }
    }

    /**
     * A pre- or post-processor that throws fails that order alone: the pre-processor's order is refused as
     * INVALID_ORDER (final, so it is not sent again into the same failure), the post-processor's is completed anyway;
     * both are counted, and every other order of the pair is acknowledged before and after.
     */
    @Test
    void aProcessorThatThrowsFailsItsOrderOnlyAndIsCounted()
    {
        // one each: a pre-processor (the FIX parser inside it) belongs to one server's thread
        final FailingPreProcessor pre0 = new FailingPreProcessor();
        final FailingPreProcessor pre1 = new FailingPreProcessor();
        final OrderPostProcessor post = (record) ->
        {
            if (30 == record.orderId())
            {
                throw new IllegalStateException("test: the post-processor cannot handle order 30");
            }
        };
        pair.launch(0, (ctx) -> ctx.preProcessor(pre0).postProcessor(post));
        pair.launch(1, (ctx) -> ctx.preProcessor(pre1).postProcessor(post));
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 20);

        pre0.isFailing = true;
        pre1.isFailing = true;
        pair.client.submit(21, 21 % PARTITIONS, -1);
        MdTests.await("order 21 refused", () ->
        {
            pair.client.poll();
            return null != TestOrderPair.reason(pair.client, 21);
        });
        assertEquals(RejectReason.INVALID_ORDER, TestOrderPair.reason(pair.client, 21));
        pre0.isFailing = false;
        pre1.isFailing = false;

        pair.submitAndAwait(22, 60); // order 30's post-processing throws
        assertTrue(pair.client.acks.get(30L).replicated(), "order 30 completed on both servers all the same");
        // the backup answers the client, so the primary may complete (and post-process) order 30 after its ack
        MdTests.await("one pre-processor failure and one post-processor failure counted", () ->
            2 == pair.servers[0].counters().errors.get() + pair.servers[1].counters().errors.get());
        pair.submitAndAwait(61, 80);
        assertEquals(2, pair.servers[0].counters().errors.get() + pair.servers[1].counters().errors.get());
        assertFalse(pair.client.acks.containsKey(21L));
    }

    /**
     * The largest partition count allowed: every client still gets the whole partition map (9 bytes a partition)
     * and can send to the last partition.
     */
    @Test
    void aServerOfTheMostPartitionsAllowedMapsThemAllToItsClients()
    {
        final int partitions = 1024;
        pair.launch(0, (ctx) -> ctx.partitions(partitions));
        pair.launch(1, (ctx) -> ctx.partitions(partitions));
        try (TestOrderClient client = pair.newClient(78, partitions))
        {
            MdTests.await("a primary for the first and the last of 1,024 partitions in the maps", () ->
            {
                client.hello();
                client.poll();
                return (PartitionRole.PRIMARY == client.role(0, partitions - 1) ||
                    PartitionRole.PRIMARY == client.role(1, partitions - 1)) &&
                    (PartitionRole.PRIMARY == client.role(0, 0) || PartitionRole.PRIMARY == client.role(1, 0));
            });
            final long[] lastSendNs = {0};
            MdTests.await("an ack from the last partition", () ->
            {
                if (System.nanoTime() - lastSendNs[0] > 200_000_000L)
                {
                    lastSendNs[0] = System.nanoTime();
                    client.submit(1, partitions - 1, -1);
                }
                client.poll();
                return client.acks.containsKey(1L);
            });
            assertEquals(partitions - 1, client.acks.get(1L).partition());
        }
    }

    /**
     * A client keeps its fixed id across a restart and comes back on new connections: the servers answer it there,
     * and an order it had sent before is still known (a duplicate).
     */
    @Test
    void aClientBackOnNewConnectionsIsAnsweredThere()
    {
        pair.start();
        pair.submitAndAwait(1, 10);
        pair.client.close();
        pair.client = pair.newClient(TestOrderPair.CLIENT_ID);
        pair.awaitRoles("the maps on the new connections", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(11, 30); // every one acknowledged on the new connections
        MdTests.await("order 1 answered again as a duplicate", () ->
        {
            pair.client.submit(1, 1 % PARTITIONS, -1);
            pair.client.poll();
            final TestOrderClient.Answer answer = pair.client.acks.get(1L);
            return null != answer && answer.duplicate();
        });
    }

    /**
     * A client that asks and never reads fills its connection: once its answers pass the send limit it is
     * disconnected (counted, logged), holding no more of the server's memory, and the other clients are served
     * throughout.
     */
    @Test
    void aClientThatStopsReadingIsDisconnectedAndTheOthersAreServed()
    {
        final int partitions = 1024; // a partition map of 9 KiB: every hello is answered with one
        pair.launch(0, (ctx) -> ctx.partitions(partitions));
        pair.launch(1, (ctx) -> ctx.partitions(partitions));
        pair.client = pair.newClient(TestOrderPair.CLIENT_ID, partitions);
        pair.awaitRoles("a primary for partition 0", () -> pair.client.primaryOf(0) >= 0);
        final TestOrderClient deaf = pair.newClient(91, partitions);
        try
        {
            MdTests.await("the deaf client disconnected", () ->
            {
                for (int i = 0; i < 100; i++)
                {
                    deaf.hello(0); // never polled: its answers pile up on server 0
                }
                return 1 == pair.servers[0].counters().clientsEvicted.get();
            });
            final long[] lastSendNs = {0};
            MdTests.await("the others are served", () ->
            {
                if (System.nanoTime() - lastSendNs[0] > 200_000_000L)
                {
                    lastSendNs[0] = System.nanoTime();
                    pair.client.submit(1, 0, -1);
                }
                pair.client.poll();
                return pair.client.acks.containsKey(1L);
            });
            assertEquals(0, pair.servers[0].counters().errors.get());
        }
        finally
        {
            deaf.close();
        }
    }

    static final class FailingPreProcessor implements OrderPreProcessor
    {
        private final FixOrderPreProcessor fix = new FixOrderPreProcessor();
        volatile boolean isFailing;

        @Override
        public RejectReason preProcess(
            final DirectBuffer order, final int offset, final int length, final OrderRecordEncoder record)
        {
            if (isFailing)
            {
                throw new IllegalStateException("test: the pre-processor cannot handle this order");
            }
            return fix.preProcess(order, offset, length, record);
        }

        @Override
        public String lastRejectText()
        {
            return fix.lastRejectText();
        }
    }

    /**
     * Server 1 dies in the middle of completing orders its backup already stored. Server 0 takes its partitions
     * over and must post-process the orders server 1 had not completed: every acknowledged order is post-processed
     * by one server or the other.
     */
    @Test
    void postProcessorRunsForOrdersCompletedOnATakeover()
    {
        postProcessorRunsForOrdersCompletedOnATakeover(true);
    }

    /**
     * The same, with server 1 closed instead of killed: its runner interrupts the hung post-processor, and the agent
     * stops there, completing neither that order nor the ones after it, so its peer post-processes them all.
     */
    @Test
    void postProcessorRunsForOrdersLeftByAServerClosedWhilePostProcessing()
    {
        postProcessorRunsForOrdersCompletedOnATakeover(false);
    }

    private void postProcessorRunsForOrdersCompletedOnATakeover(final boolean isKilled)
    {
        final StallingPostProcessor zero = new StallingPostProcessor();
        final StallingPostProcessor one = new StallingPostProcessor();
        pair.launch(0, (ctx) -> ctx.postProcessor(zero));
        pair.launch(1, (ctx) -> ctx.postProcessor(one));
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 20);

        one.isStalled = true;
        for (long id = 21; id <= 40; id++)
        {
            pair.client.submit(id, (int)(id % PARTITIONS), -1);
        }
        MdTests.await(() -> "server 1 hangs with orders stored on server 0 it has not post-processed: " +
            pair.states(), () ->
        {
            pair.client.poll();
            return one.hasStalled && pair.partitionField(0, 1, "last") + pair.partitionField(0, 3, "last") >
                one.seen.size();
        });
        if (isKilled)
        {
            pair.servers[1].severPeerLink(true); // killed: nothing more of server 1 reaches server 0
        }
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));
        pair.submitAndAwait(21, 60);
        for (final TestOrderClient.Answer ack : pair.client.acks.values())
        {
            final String key = ack.partition() + "/" + ack.sequence();
            assertTrue(zero.seen.contains(key) || one.seen.contains(key), () -> "never post-processed: " + ack);
        }
        pair.assertEachOrderOnceWithContiguousSequences();
    }

    /**
     * While the peer catches up it is not a synchronous backup: the primary acknowledges alone (replicated=FALSE),
     * neither holding the orders nor pretending they are on two servers; once it has caught up, acks are replicated.
     */
    @Test
    void acksWhileThePeerCatchesUpAreNotReplicated() throws IOException
    {
        pair.start();
        pair.submitAndAwait(1, 40);
        pair.stop(1);
        pair.awaitRoles("server 0 primary of everything", () -> pair.allPrimaryOn(0));

        pair.servers[0].severPeerLink(true); // server 1 starts but cannot hear server 0 yet
        pair.launch(1);
        pair.servers[1].losePeerMessages(CatchUpRequestDecoder.TEMPLATE_ID, Integer.MAX_VALUE);
        pair.servers[0].severPeerLink(false);
        MdTests.await(() -> "server 1 catching up: " + pair.states(),
            () -> "CATCHING_UP".equals(pair.servers[1].state()) && pair.partitionLine(0, 0).contains("role=PRIMARY"));
        pair.submitAndAwait(41, 80);
        assertEquals("CATCHING_UP", pair.servers[1].state(), "its requests are lost: still catching up");
        for (long id = 41; id <= 80; id++)
        {
            assertFalse(pair.client.acks.get(id).replicated(), "a catching-up server is no synchronous backup");
        }

        pair.servers[1].losePeerMessages(CatchUpRequestDecoder.TEMPLATE_ID, 0);
        pair.awaitRoles("server 1 caught up and took its partitions back", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(81, 120);
        for (long id = 81; id <= 120; id++)
        {
            assertTrue(pair.client.acks.get(id).replicated(), "a synchronous backup again");
        }
        pair.assertEachOrderOnceWithContiguousSequences();
        pair.verifyQueues(false);
    }

    /**
     * One client sends garbage FIX, a truncated SubmitOrder, an unknown partition and an oversize order; raw bytes
     * that are no order protocol at all also arrive on the ingress. Each bad order is rejected with its reason to
     * that client only; the raw garbage is counted (malformed) and logged; the other client's orders, sent
     * meanwhile, are all acknowledged, and it sees no reject.
     */
    @Test
    void badInputFromOneClientIsRejectedToThatClientOnlyWhileAnotherIsServed()
    {
        pair.start();
        final TestOrderClient bad = pair.newClient(78);
        try
        {
            MdTests.await("bad client knows the primaries", () ->
            {
                bad.hello();
                bad.poll();
                return bad.primaryOf(0) == 0 && bad.primaryOf(1) == 1;
            });
            final UnsafeBuffer garbageFix = new UnsafeBuffer("8=FIX.4.4\u00019=5\u000135=D\u0001garbage".getBytes());
            final UnsafeBuffer huge = new UnsafeBuffer(new byte[5000]);
            final UnsafeBuffer noise = new UnsafeBuffer("this is not an SBE message at all".getBytes());
            final UnsafeBuffer junk = new UnsafeBuffer(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}); // a header, of nothing
            for (long id = 1; id <= 100; id++)
            {
                pair.client.submit(id, (int)(id % PARTITIONS), -1);
                if (20 == id)
                {
                    bad.submitRaw(1001, 0, -1, garbageFix, garbageFix.capacity());
                    bad.submitTruncated(1002, 1, 1, 50);
                    bad.submit(1003, 99, 0);
                    bad.submitRaw(1004, 1, -1, huge, huge.capacity());
                    bad.offerRaw(0, noise, noise.capacity());
                    bad.offerRaw(1, junk, junk.capacity());
                }
            }
            pair.submitAndAwait(1, 100);
            MdTests.await("four rejects to the bad client", () ->
            {
                bad.poll();
                return bad.answers.size() >= 4;
            });
            assertEquals(RejectReason.MALFORMED_FIX, TestOrderPair.reason(bad, 1001));
            assertEquals(RejectReason.MALFORMED_FIX, TestOrderPair.reason(bad, 1002));
            assertEquals(RejectReason.UNKNOWN_PARTITION, TestOrderPair.reason(bad, 1003));
            assertEquals(RejectReason.OVERSIZE, TestOrderPair.reason(bad, 1004));
            assertEquals(4, bad.answers.size(), bad.answers::toString);
            for (final TestOrderClient.Answer answer : pair.client.answers)
            {
                assertTrue(answer.isAck(), () -> "the good client sees no reject: " + answer);
            }
            MdTests.await("raw garbage counted on both servers", () ->
                pair.servers[0].counters().malformed.get() >= 1 && pair.servers[1].counters().malformed.get() >= 1);
            assertEquals("SERVING", pair.servers[0].state());
            assertEquals("SERVING", pair.servers[1].state());
            pair.submitAndAwait(101, 120);
            pair.assertEachOrderOnceWithContiguousSequences();
        }
        finally
        {
            bad.close();
        }
    }

    /**
     * A SubmitOrder whose fixed block says it is longer than the message, sent together with a valid order (so the
     * server's receive buffer holds both): the short one is garbage, counted malformed and its connection closed; its
     * fields are not read from the next message's bytes (which would make it an order of an unknown client).
     */
    @Test
    void aSubmitOrderShorterThanItsFixedBlockIsGarbageNotReadFromTheNextMessage()
    {
        pair.start();
        final TestOrderClient bad = pair.newClient(77);
        try
        {
            final UnsafeBuffer shortOrder = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH + 4]);
            new MessageHeaderEncoder().wrap(shortOrder, 0).blockLength(SubmitOrderEncoder.BLOCK_LENGTH)
                .templateId(SubmitOrderEncoder.TEMPLATE_ID).schemaId(SubmitOrderEncoder.SCHEMA_ID)
                .version(SubmitOrderEncoder.SCHEMA_VERSION);
            bad.offerRaw(0, shortOrder, shortOrder.capacity());
            bad.submit(1, 0, 0); // queued behind it: one write, one read on the server
            MdTests.await("the short order counted as garbage", () ->
            {
                bad.poll();
                return 1 == pair.servers[0].counters().malformed.get();
            });
            assertEquals(0, pair.servers[0].counters().unknownClient.get(), "no field read beyond the message");
            pair.submitAndAwait(1, 20);
            assertEquals("SERVING", pair.servers[0].state());
        }
        finally
        {
            bad.close();
        }
    }

    /**
     * An order from a client that never said hello is not taken: it is counted and refused UNKNOWN_CLIENT on the
     * connection it came on; after a hello the same order is acknowledged.
     */
    @Test
    void orderFromAClientWithoutHelloIsRefusedUnknownClientAndAckedAfterAHello()
    {
        pair.start();
        final TestOrderClient stranger = pair.newClient(79);
        try
        {
            stranger.submit(1, 0, 0);
            MdTests.await("the order refused", () ->
            {
                stranger.poll();
                return null != TestOrderPair.reason(stranger, 1);
            });
            assertEquals(RejectReason.UNKNOWN_CLIENT, TestOrderPair.reason(stranger, 1));
            assertEquals(1, pair.servers[0].counters().unknownClient.get());
            assertTrue(stranger.acks.isEmpty(), "nothing stored for it");
            awaitAckAfterHello(stranger, "acked after a hello");
        }
        finally
        {
            stranger.close();
        }
    }

    /**
     * Say hello (on the client's own channel) and send order 1 to partition 0 until it is acknowledged.
     */
    private static void awaitAckAfterHello(final TestOrderClient client, final String what)
    {
        MdTests.await(what, () ->
        {
            client.hello();
            client.poll();
            client.submit(1, 0, 0);
            return client.acks.containsKey(1L);
        });
    }

    /**
     * The drained position moves only when the sink says a batch is durable.
     */
    @Test
    void drainedPositionAdvancesOnlyAfterTheSinkFlushes()
    {
        final AtomicInteger written = new AtomicInteger();
        final boolean[] isDurable = {false};
        final OrderSink sink = new OrderSink()
        {
            @Override
            public boolean write(
                final int partition, final long sequence, final DirectBuffer record, final int offset, final int length)
            {
                written.incrementAndGet();
                return true;
            }

            @Override
            public boolean flush()
            {
                return isDurable[0];
            }
        };
        pair.launch(0, (ctx) -> ctx.sink(sink));
        pair.launch(1);
        pair.connectClient();
        pair.awaitRoles("each server primary of half", pair::eachServerPrimaryOfHalf);
        pair.submitAndAwait(1, 20);
        MdTests.await("server 0 wrote its 10 orders", () -> 10 == written.get());
        pair.pollFor(200_000_000L);
        assertEquals(0, pair.partitionField(0, 0, "drained"), pair::states);
        assertEquals(5, pair.partitionField(0, 0, "acked"));
        isDurable[0] = true;
        MdTests.await(() -> "drained once flushed: " + pair.states(),
            () -> 5 == pair.partitionField(0, 0, "drained") && 5 == pair.partitionField(0, 2, "drained"));
        assertEquals(10, written.get(), "nothing written twice");
    }
}
