package io.mdhub.common.concurrent;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.agrona.CloseHelper;
import org.agrona.collections.Int2IntCounterMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.Image;
import io.aeron.Subscription;
import io.mdhub.common.status.MdCounters;

/**
 * The sleeping side of a wake-on-data hand-off over Aeron IPC. Aeron has no blocking poll: a thread that polls an IPC
 * subscription either spins, or parks on a timer and wakes again and again between messages (each wake-up of a
 * parked thread costs ~25 µs of CPU on a small VM), or sleeps for good and is woken by the publisher. A doorbell is the
 * last: the publishing processes write a byte to the sleeper's Unix domain socket when, and only when, it says it
 * sleeps, so the sleeper blocks in the same {@code epoll_wait} as its other sockets and wakes once per burst.
 * <p>
 * <b>Discovery.</b> The doorbell is a counter of type {@link MdCounters#DOORBELL_TYPE_ID} on the media driver, which
 * every process on the driver can read. Its key holds the stream ids it wakes for and the socket's path
 * ({@link DoorbellDescriptor}); its value is {@link #AWAKE} or {@link #ASLEEP}. A {@link DoorbellRinger} finds it,
 * connects, and first says which publication it rings for (its Aeron session id).
 * <p>
 * <b>The hand-off is an eventcount.</b> The sleeper stores {@code ASLEEP} (a volatile store), polls its subscriptions
 * once more, and only then blocks; a ringer publishes, fences, and swaps {@code ASLEEP} for {@code AWAKE} before
 * writing its byte. Either the ringer sees {@code ASLEEP} and rings, or the sleeper's last poll sees the message. The
 * byte stays readable until it is read, so a ring that lands before the sleeper blocks ends the block at once.
 * <p>
 * <b>Coverage.</b> Only a publication whose ringer has said hello can wake the sleeper; an image from any other
 * publication (a process that has not found the doorbell yet, a UDP stream whose data the driver's receiver delivers
 * after any ring could come) would sit unread until a timer. So the owner blocks without a timer only while
 * {@link #covers(Subscription)} holds, and backs off on timers otherwise.
 * <p>
 * One thread owns a doorbell (its event loop); ringers may be any thread of any process on the same driver.
 */
public final class Doorbell implements AutoCloseable
{
    /** Counter value: the owner runs (or is about to look at its streams again). */
    public static final long AWAKE = 0;
    /** Counter value: the owner may block; a ringer that published must wake it. */
    public static final long ASLEEP = 1;
    /** A socket file no one listens on is removed once it is this old (a new one is bound, then listened on). */
    static final Duration STALE_SOCKET_AGE = Duration.ofSeconds(10);
    private static final String SOCKET_PREFIX = "mdhub-doorbell-";
    private static final String SOCKET_SUFFIX = ".sock";
    private static final Logger LOG = LoggerFactory.getLogger(Doorbell.class);

    private final Path socketPath;
    private final String name;
    private final Int2IntCounterMap ringersBySession = new Int2IntCounterMap(0);
    private AtomicCounter state;

    /**
     * A doorbell not published yet: bind its socket at {@link #socketPath()}, then {@link #publish} it, so that a
     * ringer that finds its counter can connect at once (see {@link EventLoopDoorbell}).
     *
     * @param aeron the client whose driver the publishers share.
     * @param name  who sleeps, for the counter's label (e.g. {@code p2p-worker-0}).
     */
    public Doorbell(final Aeron aeron, final String name)
    {
        this.socketPath = socketPath(Path.of(aeron.context().aeronDirectoryName()));
        this.name = name;
        removeStaleSockets(socketPath.getParent(), STALE_SOCKET_AGE);
    }

    /**
     * Publish the doorbell's counter for the IPC streams its thread polls: ringers of those streams find it from now.
     *
     * @param aeron     the client whose driver the publishers share (the counter is allocated on it).
     * @param streamIds the IPC stream ids the thread subscribes to.
     * @throws IllegalArgumentException if no stream is given or the key cannot hold them and the path.
     * @throws IllegalStateException    if it was published already.
     */
    public void publish(final Aeron aeron, final int... streamIds)
    {
        if (null != state)
        {
            throw new IllegalStateException("doorbell " + name + " is published already");
        }
        final UnsafeBuffer key = DoorbellDescriptor.key(socketPath.toString(), streamIds);
        final StringBuilder label = new StringBuilder("doorbell ").append(name).append(" streams");
        for (int i = 0; i < streamIds.length; i++)
        {
            label.append(0 == i ? " " : ",").append(streamIds[i]);
        }
        final UnsafeBuffer labelBuffer = new UnsafeBuffer(label.toString().getBytes(StandardCharsets.US_ASCII));
        state = aeron.addCounter(
            MdCounters.DOORBELL_TYPE_ID, key, 0, key.capacity(), labelBuffer, 0, labelBuffer.capacity());
    }

    /**
     * @param channel an Aeron channel.
     * @return true for IPC, the only channels a doorbell can wake for (see the class comment).
     */
    public static boolean isIpc(final String channel)
    {
        return channel.startsWith(CommonContext.IPC_CHANNEL);
    }

    /**
     * Say the owner may block: from now on a ringer that publishes writes a byte. Poll the subscriptions once more
     * before blocking, or a message published just before this call waits for the next timer.
     */
    public void asleep()
    {
        state.set(ASLEEP); // volatile: ordered before the re-poll's reads (the eventcount's store-load pair)
    }

    /**
     * Say the owner runs: ringers stop writing.
     */
    public void awake()
    {
        state.setOrdered(AWAKE);
    }

    /**
     * @return whether the owner said it may block and no ringer has woken it since.
     */
    public boolean isAsleep()
    {
        return ASLEEP == state.get();
    }

    /**
     * A ringer said which publication it rings for.
     *
     * @param sessionId the Aeron session id of the ringer's publication.
     */
    public void onHello(final int sessionId)
    {
        ringersBySession.incrementAndGet(sessionId);
    }

    /**
     * A ringer that said hello has gone (its connection closed).
     *
     * @param sessionId the session id it said hello with.
     */
    public void onRingerGone(final int sessionId)
    {
        if (ringersBySession.get(sessionId) > 0)
        {
            ringersBySession.decrementAndGet(sessionId);
        }
    }

    /**
     * @param subscription a subscription the owner polls.
     * @return true when every image it has comes from a publication whose ringer said hello: only then may the owner
     * block without a timer.
     */
    public boolean covers(final Subscription subscription)
    {
        for (int i = 0, count = subscription.imageCount(); i < count; i++)
        {
            final Image image = subscription.imageAtIndex(i);
            if (0 == ringersBySession.get(image.sessionId()))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the socket ringers connect to.
     */
    public Path socketPath()
    {
        return socketPath;
    }

    /**
     * @return who sleeps, as the counter's label says.
     */
    public String name()
    {
        return name;
    }

    /**
     * Withdraw the counter and delete the socket file (the socket itself is its binder's to close, first).
     */
    @Override
    public void close()
    {
        CloseHelper.quietClose(state);
        deleteQuietly(socketPath);
    }



    /**
     * Delete the doorbell socket files in a directory that no process listens on any more: a process that crashed
     * leaves its file behind, and in {@code /tmp} nothing else would ever remove it. A file is stale when a connect to
     * it is refused, which holds whatever PID namespace its owner ran in, and only once it is older than
     * {@code minAge}, so a socket between its bind and its listen is left alone. A live doorbell that is asked sees a
     * connection that closes without a hello, and drops it.
     *
     * @param dir    where doorbells of this driver put their sockets.
     * @param minAge the youngest file that may be removed.
     * @return how many files were removed.
     */
    static int removeStaleSockets(final Path dir, final Duration minAge)
    {
        int removed = 0;
        final long newestStaleMs = System.currentTimeMillis() - minAge.toMillis();
        try (DirectoryStream<Path> sockets = Files.newDirectoryStream(dir, SOCKET_PREFIX + "*" + SOCKET_SUFFIX))
        {
            for (final Path socket : sockets)
            {
                if (Files.getLastModifiedTime(socket).toMillis() <= newestStaleMs && !isListenedOn(socket))
                {
                    Files.deleteIfExists(socket);
                    removed++;
                }
            }
        }
        catch (final IOException | DirectoryIteratorException ex)
        {
            LOG.warn("cannot look for stale doorbell sockets in {}: {}", dir, ex.toString());
        }
        if (removed > 0)
        {
            LOG.info("removed {} stale doorbell socket(s) from {} (left by processes that ended)", removed, dir);
        }
        return removed;
    }

    private static boolean isListenedOn(final Path socket)
    {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            probe.configureBlocking(false); // a listener with a full backlog answers EAGAIN, never blocks this
            probe.connect(UnixDomainSocketAddress.of(socket));
            return true;
        }
        catch (final ConnectException ex)
        {
            return false; // refused: bound by no one
        }
        catch (final IOException ex)
        {
            return true; // anything else (a full backlog among them): not known to be stale, so kept
        }
    }

    private static Path socketPath(final Path aeronDir)
    {
        final String file = SOCKET_PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong()) + SOCKET_SUFFIX;
        final Path inAeronDir = aeronDir.resolve(file);
        // in the driver's directory, or the temporary directory if that path is too long for a Unix socket; a crashed
        // owner's file is removed by a doorbell opened there later, or with the driver's directory
        return inAeronDir.toString().getBytes(StandardCharsets.UTF_8).length <= DoorbellDescriptor.MAX_PATH_BYTES ?
            inAeronDir : Path.of(System.getProperty("java.io.tmpdir")).resolve(file);
    }

    private static void deleteQuietly(final Path path)
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (final IOException ignore)
        {
            // a file left behind is removed by the next doorbell opened in its directory
        }
    }
}
