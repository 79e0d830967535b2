package io.mdhub.common.entitlement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class EntitlementFileTest
{
    private static final List<String> FILE = List.of(
        "# a comment",
        "code 62 NYSE",
        "items FEED *.L 5625      # London",
        "items FEED IBM.N 62+144",
        "user alice",
        "  application 256 1",
        "  position 10.1.* 127.0.0.1/net",
        "  token-sha256 " + EntitlementTable.sha256("tok"),
        "  service FEED 62 5625",
        "  service OTHER *",
        "  post FEED",
        "user bob",
        "  service FEED",
        "provider feed-handler",
        "  publish FEED OTHER");

    @TempDir
    Path dir;

    @Test
    void aFileOverTheLimitOrNotUtf8IsRefusedWithAClearError() throws Exception
    {
        final Path file = dir.resolve("entitlements");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(EntitlementFile.MAX_FILE_BYTES + 1L); // sparse: nothing much is written
        }
        final String tooLarge = assertThrows(EntitlementFileException.class, () -> EntitlementFile.read(file))
            .getMessage();
        assertTrue(tooLarge.contains("is larger than " + EntitlementFile.MAX_FILE_BYTES + " bytes"), tooLarge);

        Files.write(file, new byte[]{'u', 's', 'e', 'r', ' ', (byte)0xC3, '\n'});
        final String notText = assertThrows(EntitlementFileException.class, () -> EntitlementFile.read(file))
            .getMessage();
        assertTrue(notText.contains("not UTF-8 text"), notText);

        Files.writeString(file, "user alice\r\n  service FEED *\r\n");
        assertNull(EntitlementFile.read(file).user("alice").itemDenial("FEED", "X", null), "CRLF lines are lines");
    }

    @Test
    void readsUsersProvidersItemLocksAndCodeNames()
    {
        final EntitlementTable table = EntitlementFile.parse(FILE, "test");
        final UserRights alice = table.user("alice");
        assertNull(alice.loginDenial("256", "10.1.2.3/net"));
        assertNull(alice.loginDenial("1", "127.0.0.1/net"));
        assertEquals("application id '7' is not permitted for user alice", alice.loginDenial("7", "10.1.2.3"));
        assertEquals("position '10.2.0.1' is not permitted for user alice", alice.loginDenial("256", "10.2.0.1"));
        assertTrue(alice.mayUseService("OTHER"));
        assertTrue(alice.mayPost("FEED"));
        assertNull(alice.itemDenial("FEED", "VOD.L", table.mappedLock("FEED", "VOD.L")));
        // 62+144 needs both: alice holds 62 only
        assertEquals("User alice is not entitled to IBM.N of FEED (lock 62+144)",
            alice.itemDenial("FEED", "IBM.N", table.mappedLock("FEED", "IBM.N")));
        assertNull(alice.itemDenial("OTHER", "X", PermissionLock.UNREADABLE), "* opens every lock");
        assertEquals("alice", table.userForToken("tok"));
        assertNull(table.userForToken("other"));

        final UserRights bob = table.user("bob");
        assertNull(bob.loginDenial("", ""), "no application or position listed: any");
        assertNull(bob.itemDenial("FEED", "MSFT.O", null), "an unlocked item needs the service only");
        assertEquals("User bob is not entitled to VOD.L of FEED (lock 5625)",
            bob.itemDenial("FEED", "VOD.L", table.mappedLock("FEED", "VOD.L")));
        assertEquals("User bob is not entitled to service OTHER", bob.itemDenial("OTHER", "X", null));
        assertFalse(bob.mayPost("FEED"));
        assertNotNull(bob.itemDenial("FEED", "X", PermissionLock.parse("1,2,3")), "bob holds no code");

        assertNull(table.user("carol"));
        assertTrue(table.mayPublish("feed-handler", "OTHER"));
        assertFalse(table.mayPublish("feed-handler", "THIRD"));
        assertFalse(table.mayPublish("alice", "FEED"));
        assertEquals("NYSE", table.codeName(62));
        assertNull(table.mappedLock("OTHER", "VOD.L"));
    }

    @Test
    void anInvalidLineIsNamedWithItsNumber()
    {
        assertEquals("f:2: unknown statement 'usr'", assertThrows(EntitlementFileException.class,
            () -> EntitlementFile.parse(List.of("user a", "usr b"), "f")).getMessage());
        assertEquals("f:1: 'service' belongs after a 'user NAME' line", assertThrows(EntitlementFileException.class,
            () -> EntitlementFile.parse(List.of("service FEED *"), "f")).getMessage());
        assertEquals("f:3: user a is defined twice", assertThrows(EntitlementFileException.class,
            () -> EntitlementFile.parse(List.of("user a", "", "user a"), "f")).getMessage());
        assertTrue(assertThrows(EntitlementFileException.class,
            () -> EntitlementFile.parse(List.of("items F X 6,x"), "f")).getMessage().contains("is not a lock"));
        assertTrue(assertThrows(EntitlementFileException.class,
            () -> EntitlementFile.parse(List.of("user a", "token-sha256 abc"), "f")).getMessage()
            .contains("64 hex digits"));
    }

    @Test
    void locksAreReadFromPermData()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer("xx62,144".getBytes(StandardCharsets.US_ASCII));
        final PermissionLock any = PermissionLock.parse(buffer, 2, 6);
        assertEquals("62,144", any.toString());
        assertTrue(any.opensWith(CodeSet.of(144)));
        final PermissionLock all = PermissionLock.parse("144+62");
        assertEquals("62+144", all.toString());
        assertFalse(all.opensWith(CodeSet.of(144)));
        assertTrue(all.opensWith(CodeSet.of(62, 144, 7)));
        assertNull(PermissionLock.parse(new UnsafeBuffer(new byte[]{3, 1, 44, 86}), 0, 4), "a binary DACS lock");
        assertNull(PermissionLock.parse("62,144+7"));
        assertNull(PermissionLock.parse(""));
        assertFalse(PermissionLock.UNREADABLE.opensWith(CodeSet.of(62)));
    }

    @Test
    void patternsMatchWholeNames()
    {
        assertTrue(NamePattern.of("10.1.*").matches("10.1.2.3"));
        assertFalse(NamePattern.of("10.1.*").matches("10.10.2.3"));
        assertTrue(NamePattern.of("*.L").matches("VOD.L"));
        assertTrue(NamePattern.of("a*b*c").matches("abc"));
        assertTrue(NamePattern.of("a*b*c").matches("aXXbYYc"));
        assertFalse(NamePattern.of("a*b*c").matches("aXXcYYb"));
        assertTrue(NamePattern.of("*").matches(""));
        assertFalse(NamePattern.of("IBM.N").matches("IBM.NX"));
    }

    @Test
    void failedLoginsBlockAnAddressUntilTheyAgeOut()
    {
        final long window = TimeUnit.SECONDS.toNanos(60);
        final LoginThrottle throttle = new LoginThrottle(3, window, window);
        long now = 1_000_000_000L;
        for (int i = 0; i < 3; i++)
        {
            assertFalse(throttle.isBlocked("10.0.0.1", now));
            throttle.onFailure("10.0.0.1", now++);
        }
        assertTrue(throttle.isBlocked("10.0.0.1", now));
        assertFalse(throttle.isBlocked("10.0.0.2", now), "per address");
        now += window + 1;
        assertFalse(throttle.isBlocked("10.0.0.1", now), "a minute after the last failure");
        throttle.onFailure("10.0.0.1", now);
        assertFalse(throttle.isBlocked("10.0.0.1", now), "the count starts again");
    }
}
