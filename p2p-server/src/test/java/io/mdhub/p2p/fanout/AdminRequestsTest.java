package io.mdhub.p2p.fanout;

import static io.mdhub.p2p.fanout.FanOutHarness.FEED;
import static io.mdhub.p2p.fanout.FanOutHarness.FEED_NAME;
import static io.mdhub.p2p.fanout.FanOutHarness.OTHER;
import static io.mdhub.p2p.fanout.FanOutHarness.OTHER_NAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.DisconnectReason;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.source.ServiceInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admin domains of a fan-out worker, without sockets ({@link FanOutHarness}): logins, the source directory and
 * dictionaries.
 */
@InterruptAfter(10)
class AdminRequestsTest
{
    private static final long FILTER = Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE;
    private static final String ENTITLEMENTS = """
        user alice
          service DIRECT_FEED *
        user carol
          service DIRECT_FEED *
          service OTHER_FEED *
        """;

    private FanOutHarness harness;

    @AfterEach
    void tearDown()
    {
        if (null != harness)
        {
            harness.close();
        }
    }

    @Test
    void aProviderLoginIsRefusedAndDisconnectedAfterTheLinger()
    {
        harness = new FanOutHarness(100, 1_000);
        final FanOutHarness.Consumer consumer = harness.connect();

        consumer.send(FanOutHarness.login("publisher", true));

        final List<EtaMessage> answers = consumer.read();
        assertEquals(1, answers.size(), answers::toString);
        assertEquals(DomainTypes.LOGIN, answers.get(0).domainType());
        assertEquals(StateCodes.USAGE_ERROR, FanOutHarness.closedCode(answers.get(0)));
        assertEquals(1, harness.counters.rejected(RejectReason.PROVIDER_LOGIN).get());
        assertEquals(0, harness.counters.loginsAccepted().get());
        assertTrue(consumer.isOpen(), "open while the consumer reads the status");

        consumer.advance(TimeUnit.MILLISECONDS.toNanos(ConsumerSession.REJECT_LINGER_MS + 1));
        assertFalse(consumer.isOpen());
        assertEquals(1, harness.counters.disconnects(DisconnectReason.LOGIN_REJECTED).get());
    }

    @Test
    void closingTheLoginStreamClosesEveryStreamOfTheUser()
    {
        harness = new FanOutHarness(100, 1_000);
        final FanOutHarness.Consumer consumer = harness.connect();
        assertEquals(MsgClasses.REFRESH, consumer.login("alice").msgClass());
        consumer.send(FanOutHarness.item(5, FEED, "TRI.N", true, 0));
        consumer.send(FanOutHarness.item(6, FEED, "IBM.N", true, 0));
        assertEquals(2, harness.counters.watchlistEntries().get());
        harness.source.takeCalls();

        consumer.send(FanOutHarness.close(DomainTypes.LOGIN, FanOutHarness.LOGIN_STREAM));

        assertEquals(Set.of("close 0", "close 1"), Set.copyOf(harness.source.takeCalls()));
        assertEquals(0, harness.counters.watchlistEntries().get());
        assertEquals(0, harness.counters.itemsOpen().get());
        assertEquals(1, harness.usage.count("LOGOFF user=alice"));
        consumer.send(FanOutHarness.item(7, FEED, "TRI.N", true, 0));
        assertEquals(StateCodes.USAGE_ERROR, FanOutHarness.closedCode(consumer.read().get(0)), "logged off");
        assertEquals(1, harness.counters.rejected(RejectReason.LOGIN_REQUIRED).get());
    }

    @Test
    void theDirectoryIsFilteredByServiceAndByEntitlement()
    {
        harness = new FanOutHarness(100, 1_000, ENTITLEMENTS);
        final FanOutHarness.Consumer alice = harness.connect();
        alice.login("alice");
        final FanOutHarness.Consumer carol = harness.connect();
        carol.login("carol");

        alice.send(FanOutHarness.directory(2, FILTER, true, -1));
        assertEquals(List.of(FEED_NAME), alice.read().get(0).serviceNames(), "only the services alice may use");
        alice.send(FanOutHarness.directory(3, FILTER, false, OTHER));
        assertEquals(StateCodes.NOT_ENTITLED, FanOutHarness.closedCode(alice.read().get(0)));

        carol.send(FanOutHarness.directory(2, FILTER, true, -1));
        assertEquals(List.of(FEED_NAME, OTHER_NAME), carol.read().get(0).serviceNames());
        carol.send(FanOutHarness.directory(3, FILTER, false, OTHER));
        assertEquals(List.of(OTHER_NAME), carol.read().get(0).serviceNames());
        carol.send(FanOutHarness.directory(4, FILTER, false, 99));
        assertEquals(StateCodes.SOURCE_UNKNOWN, FanOutHarness.closedCode(carol.read().get(0)));
        assertEquals(1, harness.counters.rejected(RejectReason.UNKNOWN_SERVICE).get());
    }

    @Test
    void theDirectoryIsReadFromTheSourceAtItsFirstUse()
    {
        harness = new FanOutHarness(100, 1_000);
        final FanOutHarness.Consumer consumer = harness.connect();
        consumer.login("alice");
        assertEquals(0, harness.source.servicesAsked(), "a login needs no directory");

        consumer.send(FanOutHarness.directory(2, FILTER, false, -1));
        assertEquals(1, harness.source.servicesAsked());
        consumer.send(FanOutHarness.directory(3, FILTER, false, -1));
        consumer.send(FanOutHarness.item(5, FEED, "TRI.N", true, 0));
        assertEquals(1, harness.source.servicesAsked(), "read once");
        assertEquals(2, consumer.read().size(), "two refreshes, then nothing for the item until its image");
    }

    @Test
    void aServiceChangeReachesOnlyTheStreamingWatchersOfThatService()
    {
        harness = new FanOutHarness(100, 1_000);
        final FanOutHarness.Consumer all = harness.connect();
        all.login("alice");
        all.send(FanOutHarness.directory(2, FILTER, true, -1));
        final FanOutHarness.Consumer feed = harness.connect();
        feed.login("bob");
        feed.send(FanOutHarness.directory(2, FILTER, true, FEED));
        final FanOutHarness.Consumer other = harness.connect();
        other.login("carol");
        other.send(FanOutHarness.directory(2, FILTER, true, OTHER));
        final FanOutHarness.Consumer snapshot = harness.connect();
        snapshot.login("dave");
        snapshot.send(FanOutHarness.directory(2, FILTER, false, -1));
        for (final FanOutHarness.Consumer consumer : List.of(all, feed, other, snapshot))
        {
            assertEquals(MsgClasses.REFRESH, consumer.read().get(0).msgClass());
        }

        harness.source.listener().onServiceChanged(
            new ServiceInfo(FEED, FEED_NAME, false, true, DomainTypes.MARKET_PRICE));

        for (final FanOutHarness.Consumer consumer : List.of(all, feed))
        {
            final List<EtaMessage> updates = consumer.read();
            assertEquals(1, updates.size(), updates::toString);
            assertEquals(MsgClasses.UPDATE, updates.get(0).msgClass());
            assertEquals(DomainTypes.SOURCE, updates.get(0).domainType());
            assertEquals(2, updates.get(0).streamId());
            assertEquals(FEED, updates.get(0).directoryUpdate().serviceList().get(0).serviceId());
        }
        assertEquals(List.of(), other.read(), "watches another service");
        assertEquals(List.of(), snapshot.read(), "not streaming");
    }

    @Test
    void anUnknownDictionaryIsNotFound()
    {
        harness = new FanOutHarness(100, 1_000);
        final FanOutHarness.Consumer consumer = harness.connect();
        consumer.login("alice");

        consumer.send(FanOutHarness.dictionary(3, "NoSuchDictionary"));

        final List<EtaMessage> answers = consumer.read();
        assertEquals(1, answers.size(), answers::toString);
        assertEquals(DomainTypes.DICTIONARY, answers.get(0).domainType());
        assertEquals(StreamStates.CLOSED, answers.get(0).streamState());
        assertEquals(StateCodes.NOT_FOUND, answers.get(0).code());
        assertEquals(1, harness.counters.rejected(RejectReason.UNKNOWN_DICTIONARY).get());
        consumer.send(FanOutHarness.dictionary(4, "RWFFld"));
        final List<EtaMessage> parts = consumer.read();
        assertFalse(parts.isEmpty());
        for (final EtaMessage part : parts)
        {
            assertEquals(MsgClasses.REFRESH, part.msgClass(), part::toString);
            assertEquals(4, part.streamId());
        }
        assertTrue(parts.get(parts.size() - 1).isRefreshComplete(), "a known dictionary is sent whole");
    }
}
