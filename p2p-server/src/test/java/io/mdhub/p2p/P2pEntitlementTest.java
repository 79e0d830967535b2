package io.mdhub.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.refinitiv.eta.codec.AckMsg;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.NakCodes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.Login;
import io.mdhub.common.dictionary.FieldIds;
import io.mdhub.common.entitlement.LoginThrottle;
import io.mdhub.common.entitlement.WatchedEntitlementFile;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.eta.EtaConsumer;
import io.mdhub.common.test.eta.EtaMessage;
import io.mdhub.p2p.entitlement.ChronicleUsageLog;
import io.mdhub.p2p.entitlement.RecordingUsageLog;
import io.mdhub.p2p.entitlement.UsageLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real ETA consumers against a p2p-server with an entitlement file: who gets which item, who is refused with
 * Closed/NotEntitled and why, what a change of the file does to open streams, and what the usage log says.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(60)
class P2pEntitlementTest
{
    private static final int FEED = 1;
    private static final int OTHER = 300;
    private static final String TOKEN = "s3cret-token-of-carol";
    private static final String FILE = """
        code 62 NYSE
        code 5625 LSE
        items DIRECT_FEED IBM.* 5625
        user alice
          application 256
          service DIRECT_FEED 62 5625
          service OTHER_FEED *
          post DIRECT_FEED
        user bob
          service DIRECT_FEED 99
        user carol
          token-sha256 %s
          service DIRECT_FEED 62
        user dave
          application 999
          service DIRECT_FEED *
        user erin
          service DIRECT_FEED 99
          post DIRECT_FEED
        """.formatted(sha256(TOKEN));

    @TempDir
    Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final RecordingUsageLog usage = new RecordingUsageLog();
    private final StubMarketDataSource source = new StubMarketDataSource()
        .service(FEED, "DIRECT_FEED")
        .service(OTHER, "OTHER_FEED")
        .item(FEED, "TRI.N", FieldIds.BID, 12340, FieldIds.ASK, 12350)
        .lock(FEED, "TRI.N", "62")
        .item(FEED, "IBM.N", FieldIds.BID, 20000, FieldIds.ASK, 20010)
        .item(FEED, "MSFT.O", FieldIds.BID, 41000, FieldIds.ASK, 41020)
        .item(OTHER, "VOD.L", FieldIds.BID, 7000, FieldIds.ASK, 7010);
    private P2pServer server;
    private WatchedEntitlementFile entitlements;
    private Path file;

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = closeables.size() - 1; i >= 0; i--)
        {
            closeables.get(i).close();
        }
        if (null != server)
        {
            server.close();
        }
        if (null != entitlements)
        {
            entitlements.close();
        }
    }

    private void launch(final LoginThrottle throttle) throws IOException
    {
        launch(throttle, usage);
    }

    private void launch(final LoginThrottle throttle, final UsageLog usageLog) throws IOException
    {
        launch(throttle, usageLog, 2);
    }

    private void launch(final LoginThrottle throttle, final UsageLog usageLog, final int workers) throws IOException
    {
        file = dir.resolve("entitlements");
        Files.writeString(file, FILE);
        entitlements = WatchedEntitlementFile.open(file, null, null);
        server = P2pServer.launch(new P2pServer.Context()
            .port(0)
            .workers(workers)
            .componentName("p2p-entitlements")
            .itemSourceFactory(source)
            .entitlementSource(entitlements)
            .loginThrottle(throttle)
            .usageLog(usageLog));
    }

    private EtaConsumer consumer(final String user)
    {
        final EtaConsumer consumer = EtaConsumer.connect(server.port());
        closeables.add(consumer);
        assertEquals(StreamStates.OPEN, consumer.login(user).state().streamState());
        return consumer;
    }

    private static void assertNotEntitled(final EtaMessage message, final String why)
    {
        assertEquals(MsgClasses.STATUS, message.msgClass(), message::toString);
        assertEquals(StreamStates.CLOSED, message.streamState(), message::toString);
        assertEquals(StateCodes.NOT_ENTITLED, message.code(), message::toString);
        assertTrue(message.text().contains(why), () -> "'" + why + "' in " + message);
    }

    private static void assertRefresh(final EtaMessage message)
    {
        assertEquals(MsgClasses.REFRESH, message.msgClass(), message::toString);
        assertEquals(DataStates.OK, message.dataState(), message::toString);
    }

    @Test
    void entitledUserGetsTheItemAndOthersAreRefusedWithTheReason() throws IOException
    {
        launch(LoginThrottle.off());
        final EtaConsumer alice = consumer("alice");
        final EtaConsumer bob = consumer("bob");

        alice.requestItem(5, FEED, "TRI.N"); // locked 62 by its provider: alice holds 62
        assertRefresh(alice.awaitMessage(5));
        bob.requestItem(5, FEED, "TRI.N"); // bob holds 99 only
        assertNotEntitled(bob.awaitMessage(5), "not entitled to TRI.N of DIRECT_FEED (lock 62)");
        bob.requestItem(6, FEED, "IBM.N"); // locked 5625 by the file
        assertNotEntitled(bob.awaitMessage(6), "(lock 5625)");
        bob.requestItem(7, FEED, "MSFT.O"); // no lock: the service is enough
        assertRefresh(bob.awaitMessage(7));
        bob.requestItem(8, OTHER, "VOD.L"); // no right to the service at all
        assertNotEntitled(bob.awaitMessage(8), "not entitled to service OTHER_FEED");
        bob.requestPrivate(9, OTHER, "VOD.L"); // a private stream goes through the same check
        assertNotEntitled(bob.awaitMessage(9), "not entitled to service OTHER_FEED");
        alice.requestItem(6, FEED, "IBM.N");
        assertRefresh(alice.awaitMessage(6));

        // the directory shows a user only what it may use
        bob.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        assertEquals(List.of("DIRECT_FEED"), bob.awaitMessage(2).serviceNames());
        alice.requestDirectory(2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE);
        assertEquals(2, alice.awaitMessage(2).serviceNames().size());

        // posting: alice may post to DIRECT_FEED, bob may not
        bob.post(7, FEED, null, 1, true, new byte[0]);
        final EtaMessage nak = bob.awaitMessage(7);
        assertEquals(MsgClasses.ACK, nak.msgClass(), nak::toString);
        assertEquals(NakCodes.ACCESS_DENIED, ((AckMsg)nak.msg()).nakCode(), nak::toString);
        awaitUsage("POST_DENIED user=bob service=DIRECT_FEED item=MSFT.O");

        assertEquals(1, usage.count("ITEM_GRANTED user=alice service=DIRECT_FEED item=TRI.N codes=62"));
        assertEquals(1, usage.count("ITEM_DENIED user=bob service=DIRECT_FEED item=TRI.N codes=62"));
        assertEquals(1, usage.count("ITEM_DENIED user=bob service=DIRECT_FEED item=IBM.N codes=5625"));
        assertEquals(2, usage.count("ITEM_DENIED user=bob service=OTHER_FEED item=VOD.L"), usage.lines()::toString);
        assertEquals(1, usage.count("ITEM_GRANTED user=bob service=DIRECT_FEED item=MSFT.O codes=null"));
        bob.closeItem(7);
        awaitUsage("ITEM_CLOSED user=bob service=DIRECT_FEED item=MSFT.O codes=null app=256 opened");
        assertEquals(4, server.context().counters().rejected(RejectReason.NOT_ENTITLED).get());
    }

    @Test
    void aWithdrawnPermissionClosesTheOpenStreamWithinASecond() throws Exception
    {
        launch(LoginThrottle.off());
        final EtaConsumer alice = consumer("alice");
        final EtaConsumer bob = consumer("bob");
        alice.requestItem(5, FEED, "TRI.N");
        assertRefresh(alice.awaitMessage(5));
        alice.requestItem(6, FEED, "MSFT.O");
        assertRefresh(alice.awaitMessage(6));
        bob.requestItem(5, FEED, "MSFT.O");
        assertRefresh(bob.awaitMessage(5));

        // alice loses code 62; bob loses the whole user: an editor's save (write a copy, rename over)
        final Path edited = dir.resolve("entitlements.new");
        Files.writeString(edited, FILE.replace("service DIRECT_FEED 62 5625", "service DIRECT_FEED 5625")
            .replace("user bob\n  service DIRECT_FEED 99\n", ""));
        final long savedNs = System.nanoTime();
        Files.move(edited, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        final EtaMessage closed = alice.awaitMessage(5, Duration.ofSeconds(5));
        final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - savedNs);
        assertNotEntitled(closed, "(lock 62)");
        assertTrue(tookMs < 1000, () -> "closed " + tookMs + " ms after the save");
        final EtaMessage bobLogin = bob.awaitMessage(1, Duration.ofSeconds(5));
        assertEquals(StreamStates.CLOSED, bobLogin.streamState(), bobLogin::toString);
        assertEquals(StateCodes.NOT_ENTITLED, bobLogin.code(), bobLogin::toString);
        bob.awaitClosed();

        // alice's other stream is untouched: it still gets updates
        source.update(FEED, "MSFT.O", 0, FieldIds.BID, 41005);
        assertEquals(MsgClasses.UPDATE, alice.awaitMessage(6).msgClass());
        awaitUsage("ITEM_CLOSED user=alice service=DIRECT_FEED item=TRI.N codes=62 app=256 opened " +
            "reason=permission withdrawn");
        awaitUsage("LOGOFF user=bob");
        assertEquals(2, server.context().counters().rejected(RejectReason.ENTITLEMENT_WITHDRAWN).get());

        // bob's connection has gone: his grant and his login each have exactly one close
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (1 != server.context().counters().connectionsActive().get())
        {
            assertTrue(System.nanoTime() < deadline, "bob's connection is still open on the server");
            Thread.onSpinWait();
        }
        assertEquals(1, usage.count("LOGOFF user=bob"), usage.lines()::toString);
        assertEquals(1, usage.count("ITEM_CLOSED user=bob"), usage.lines()::toString);
    }

    @Test
    void aLockInAStatusClosesTheStreamsOfUsersWithoutItsCode() throws IOException
    {
        launch(LoginThrottle.off());
        final EtaConsumer alice = consumer("alice");
        final EtaConsumer bob = consumer("bob");
        alice.requestItem(5, FEED, "MSFT.O");
        assertRefresh(alice.awaitMessage(5));
        bob.requestItem(5, FEED, "MSFT.O"); // no lock yet: the service is enough
        assertRefresh(bob.awaitMessage(5));

        source.lockByStatus(FEED, "MSFT.O", "62"); // alice holds 62, bob does not
        assertNotEntitled(bob.awaitMessage(5), "(lock 62)");
        final EtaMessage status = alice.awaitMessage(5);
        assertEquals(MsgClasses.STATUS, status.msgClass(), status::toString);
        assertEquals(StreamStates.OPEN, status.streamState(), status::toString);
        source.update(FEED, "MSFT.O", 0, FieldIds.BID, 41005);
        assertEquals(MsgClasses.UPDATE, alice.awaitMessage(5).msgClass());
        awaitUsage("ITEM_CLOSED user=bob service=DIRECT_FEED item=MSFT.O codes=62 app=256 opened " +
            "reason=permission withdrawn");

        // a new request of bob's meets the lock the status brought
        bob.requestItem(6, FEED, "MSFT.O");
        assertNotEntitled(bob.awaitMessage(6), "(lock 62)");
    }

    @Test
    void aPostMeetsTheLockItsProviderGaveTheItemOnStreamOrOff() throws IOException
    {
        launch(LoginThrottle.off(), usage, 1); // one worker: alice's watch puts TRI.N where erin posts
        final EtaConsumer alice = consumer("alice");
        final EtaConsumer erin = consumer("erin"); // may post to DIRECT_FEED, holds 99 only
        alice.requestItem(5, FEED, "TRI.N"); // its provider locks it 62
        assertRefresh(alice.awaitMessage(5));

        erin.post(1, FEED, "TRI.N", 7, true, new byte[0]); // off-stream, on the login stream
        final EtaMessage nak = erin.awaitMessage(1);
        assertEquals(MsgClasses.ACK, nak.msgClass(), nak::toString);
        assertEquals(NakCodes.ACCESS_DENIED, ((AckMsg)nak.msg()).nakCode(), nak::toString);
        assertTrue(((AckMsg)nak.msg()).text().toString().contains("(lock 62)"), nak::toString);

        // an item without a lock: erin's post goes on (the stub source takes none: denied by the source)
        erin.post(1, FEED, "MSFT.O", 8, true, new byte[0]);
        final EtaMessage sent = erin.awaitMessage(1);
        assertEquals(NakCodes.DENIED_BY_SRC, ((AckMsg)sent.msg()).nakCode(), sent::toString);
    }

    @Test
    void aTokenRemovedFromTheFileLogsOffTheSessionItOpened() throws Exception
    {
        launch(LoginThrottle.off());
        final EtaConsumer carol = EtaConsumer.connect(server.port());
        closeables.add(carol);
        carol.sendLogin(TOKEN, (request) ->
        {
            request.applyHasUserNameType();
            request.userNameType(Login.UserIdTypes.TOKEN);
        });
        assertEquals(MsgClasses.REFRESH, carol.awaitMessage(1).msgClass());
        carol.requestItem(5, FEED, "TRI.N");
        assertRefresh(carol.awaitMessage(5));
        final EtaConsumer alice = consumer("alice");

        // the token is revoked; carol the user stays in the file (she may still log in by name)
        final Path edited = dir.resolve("entitlements.new");
        Files.writeString(edited, FILE.replace("  token-sha256 " + sha256(TOKEN) + "\n", ""));
        Files.move(edited, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        final EtaMessage login = carol.awaitMessage(1, Duration.ofSeconds(5));
        assertEquals(StreamStates.CLOSED, login.streamState(), login::toString);
        assertEquals(StateCodes.NOT_ENTITLED, login.code(), login::toString);
        carol.awaitClosed();
        awaitUsage("ITEM_CLOSED user=carol service=DIRECT_FEED item=TRI.N codes=62 app=256 opened " +
            "reason=permission withdrawn");
        // a user logged in by name is not touched
        alice.requestItem(5, FEED, "TRI.N");
        assertRefresh(alice.awaitMessage(5));
    }

    @Test
    void loginsAreCheckedByUserApplicationAndTokenAndFailuresAreThrottled() throws IOException
    {
        launch(new LoginThrottle(3, TimeUnit.MINUTES.toNanos(1), TimeUnit.MINUTES.toNanos(1)));
        assertLoginRefused("mallory", (request) -> { }, "unknown user mallory");
        assertLoginRefused("dave", (request) -> { }, "application id '256' is not permitted for user dave");
        final EtaConsumer dave = EtaConsumer.connect(server.port());
        closeables.add(dave);
        dave.sendLogin("dave", (request) -> request.attrib().applicationId().data("999"));
        assertEquals(MsgClasses.REFRESH, dave.awaitMessage(1).msgClass());

        final EtaConsumer carol = EtaConsumer.connect(server.port());
        closeables.add(carol);
        carol.sendLogin(TOKEN, (request) ->
        {
            request.applyHasUserNameType();
            request.userNameType(Login.UserIdTypes.TOKEN);
        });
        assertEquals(MsgClasses.REFRESH, carol.awaitMessage(1).msgClass());
        carol.requestItem(5, FEED, "TRI.N");
        assertRefresh(carol.awaitMessage(5));
        awaitUsage("ITEM_GRANTED user=carol service=DIRECT_FEED item=TRI.N");

        assertLoginRefused("wrong-token", (request) ->
        {
            request.applyHasUserNameType();
            request.userNameType(Login.UserIdTypes.TOKEN);
        }, "invalid token");
        // three failures from this address within the window (the good logins between them do not wipe them out):
        // even a valid user is refused now, unchecked
        assertLoginRefused("alice", (request) -> { }, "too many failed logins");
        assertEquals(3, server.context().counters().rejected(RejectReason.LOGIN_DENIED).get());
        assertEquals(1, server.context().counters().rejected(RejectReason.LOGIN_THROTTLED).get());
        assertEquals(4, usage.count("LOGIN_DENIED"));
    }

    @Test
    void theUsageReportListsBothUsers() throws IOException
    {
        final Path usageDir = dir.resolve("usage");
        launch(LoginThrottle.off(), new ChronicleUsageLog(usageDir));
        final EtaConsumer alice = consumer("alice");
        final EtaConsumer bob = consumer("bob");
        alice.requestItem(5, FEED, "TRI.N");
        assertRefresh(alice.awaitMessage(5));
        alice.requestItem(6, FEED, "IBM.N");
        assertRefresh(alice.awaitMessage(6));
        bob.requestItem(5, FEED, "TRI.N");
        assertNotEntitled(bob.awaitMessage(5), "(lock 62)");
        bob.requestItem(6, FEED, "MSFT.O");
        assertRefresh(bob.awaitMessage(6));
        alice.closeItem(5);
        assertLoginRefused("mallory", (request) -> { }, "unknown user mallory");
        server.close(); // the log is closed with the server: every record is written
        server = null;

        final java.io.StringWriter out = new java.io.StringWriter();
        final picocli.CommandLine command = new picocli.CommandLine(new P2pMain());
        command.setOut(new java.io.PrintWriter(out));
        assertEquals(0, command.execute("usage-report", "--dir", usageDir.toString(), "--format", "csv"));
        final List<String> lines = List.of(out.toString().split("\n"));
        // user, logins, logins-denied, items, items-denied, distinct-items, watch, open, posts-denied
        assertTrue(lines.stream().anyMatch((line) -> line.matches("alice,1,0,2,0,2,\\d+,0,0")), out::toString);
        assertTrue(lines.stream().anyMatch((line) -> line.matches("bob,1,0,1,1,1,\\d+,0,0")), out::toString);
        assertTrue(lines.stream().anyMatch((line) -> line.startsWith("mallory,0,1,0,0,0,")), out::toString);
        // code, name, users, distinct-items, grants, watch, open: 62 is TRI.N (alice), 5625 is IBM.N (alice)
        assertTrue(lines.stream().anyMatch((line) -> line.matches("62,,1,1,1,\\d+,0")), out::toString);
        assertTrue(lines.stream().anyMatch((line) -> line.matches("5625,,1,1,1,\\d+,0")), out::toString);

        // the entitlement file's code lines name the codes
        final java.io.StringWriter named = new java.io.StringWriter();
        final picocli.CommandLine again = new picocli.CommandLine(new P2pMain());
        again.setOut(new java.io.PrintWriter(named));
        assertEquals(0, again.execute("usage-report", "--dir", usageDir.toString(), "--format", "csv",
            "--entitlements", file.toString()));
        assertTrue(named.toString().lines().anyMatch((line) -> line.matches("62,NYSE,1,1,1,\\d+,0")),
            named::toString);
    }

    private void assertLoginRefused(
        final String user, final java.util.function.Consumer<com.refinitiv.eta.valueadd.domainrep.rdm.login
            .LoginRequest> customiser, final String why)
    {
        final EtaConsumer consumer = EtaConsumer.connect(server.port());
        closeables.add(consumer);
        consumer.sendLogin(user, customiser);
        final EtaMessage answer = consumer.awaitMessage(1);
        assertEquals(MsgClasses.STATUS, answer.msgClass(), answer::toString);
        assertEquals(StreamStates.CLOSED, answer.streamState(), answer::toString);
        assertEquals(StateCodes.NOT_ENTITLED, answer.code(), answer::toString);
        assertTrue(answer.text().contains(why), () -> "'" + why + "' in " + answer);
        consumer.awaitClosed();
    }

    private void awaitUsage(final String prefix)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (0 == usage.count(prefix))
        {
            assertTrue(System.nanoTime() < deadline, () -> "no usage record '" + prefix + "' in " + usage.lines());
            Thread.onSpinWait();
        }
    }

    private static String sha256(final String text)
    {
        try
        {
            return HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final java.security.NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
