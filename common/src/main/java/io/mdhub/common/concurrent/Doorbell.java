package io.mdhub.common.concurrent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.mdhub.common.status.MdCounters;

/**
 * The sleeping side of a wake-on-data hand-off over Aeron IPC: a thread that polls IPC subscriptions can block in
 * {@code epoll_wait} when they are empty, and the processes publishing to those streams wake it by writing a byte to
 * its Unix domain socket — only when it says it sleeps, and only once per sleep. A thread that backs off with timed
 * parks instead wakes several times between two messages at a few thousand a second, and each wake-up of a parked
 * thread costs ~25 µs of CPU on a shared VM; with a doorbell it wakes once per message, when the message is there.
 * <p>
 * Discovery goes through the media driver's counters, which every process on the driver can read: the doorbell is a
 * counter of type {@link MdCounters#DOORBELL_TYPE_ID} whose key holds the stream ids it wakes for and the socket's
 * path, and whose value is {@link #AWAKE} or {@link #ASLEEP}. A publisher finds it with a {@link DoorbellRinger}.
 * <p>
 * The hand-off is the eventcount pattern. The sleeper says {@link #asleep()} (a volatile store), polls its
 * subscriptions once more, and only then {@link #await}s; a ringer publishes, fences, and swaps {@code ASLEEP} to
 * {@code AWAKE} before writing its byte. Either the ringer sees {@code ASLEEP} and rings, or the sleeper's last
 * poll sees the message: no wake-up is lost. Only IPC streams qualify: over UDP the driver delivers the message
 * after the publisher rings, so the sleeper could wake before its message exists.
 * <p>
 * One thread uses a doorbell; ringers may be any thread of any process on the same driver.
 */
public final class Doorbell implements AutoCloseable
{
    /** Counter value: the owner is running (or about to look at its streams again). */
    public static final long AWAKE = 0;
    /** Counter value: the owner may block; a ringer that publishes must wake it. */
    public static final long ASLEEP = 1;
    /** Longest Unix domain socket path Linux accepts (sun_path without its terminating zero). */
    static final int MAX_PATH_BYTES = 107;
    /** Largest key an Aeron counter holds. */
    static final int MAX_KEY_BYTES = CountersReader.MAX_KEY_LENGTH;
    /** A socket file no one listens on is removed once it is this old (a new one is bound, then listened on). */
    static final Duration STALE_SOCKET_AGE = Duration.ofSeconds(10);
    private static final String SOCKET_PREFIX = "mdhub-doorbell-";
    private static final String SOCKET_SUFFIX = ".sock";
    private static final Logger LOG = LoggerFactory.getLogger(Doorbell.class);

    private final AtomicCounter state;
    private final Path socketPath;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final ByteBuffer drainBuffer = ByteBuffer.allocateDirect(64);
    private final Consumer<SelectionKey> onReady = this::onReady;
    private long wakeUps;

    private Doorbell(
        final AtomicCounter state, final Path socketPath, final ServerSocketChannel server, final Selector selector)
    {
        this.state = state;
        this.socketPath = socketPath;
        this.server = server;
        this.selector = selector;
    }

    /**
     * Open a doorbell for the IPC streams one thread polls: bind its socket, then publish its counter.
     *
     * @param aeron     the client whose driver the publishers share (the counter is allocated on it).
     * @param name      who sleeps, for the counter's label (e.g. {@code order-server-0}).
     * @param streamIds the IPC stream ids the thread subscribes to.
     * @return the doorbell, {@link #AWAKE}.
     * @throws IllegalArgumentException if no stream is given or the key cannot hold them and the path.
     * @throws UncheckedIOException     if the socket cannot be bound.
     */
    public static Doorbell open(final Aeron aeron, final String name, final int... streamIds)
    {
        if (0 == streamIds.length)
        {
            throw new IllegalArgumentException("a doorbell needs at least one stream id");
        }
        final Path socketPath = socketPath(Path.of(aeron.context().aeronDirectoryName()));
        removeStaleSockets(socketPath.getParent(), STALE_SOCKET_AGE);
        final byte[] pathBytes = socketPath.toString().getBytes(StandardCharsets.UTF_8);
        final int keyLength = Integer.BYTES * (2 + streamIds.length) + pathBytes.length;
        if (keyLength > MAX_KEY_BYTES)
        {
            throw new IllegalArgumentException("a doorbell key holds " + MAX_KEY_BYTES + " bytes; " +
                streamIds.length + " streams and " + socketPath + " need " + keyLength);
        }
        final UnsafeBuffer key = new UnsafeBuffer(new byte[keyLength]);
        key.putInt(0, streamIds.length);
        final StringBuilder label = new StringBuilder("doorbell ").append(name).append(" streams");
        for (int i = 0; i < streamIds.length; i++)
        {
            key.putInt(Integer.BYTES * (1 + i), streamIds[i]);
            label.append(i == 0 ? " " : ",").append(streamIds[i]);
        }
        key.putStringUtf8(Integer.BYTES * (1 + streamIds.length), socketPath.toString()); // length, then bytes

        ServerSocketChannel server = null;
        Selector selector = null;
        boolean isOpen = false;
        try
        {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socketPath));
            server.configureBlocking(false);
            selector = Selector.open();
            server.register(selector, SelectionKey.OP_ACCEPT);
            final UnsafeBuffer labelBuffer = new UnsafeBuffer(label.toString().getBytes(StandardCharsets.US_ASCII));
            final AtomicCounter state = aeron.addCounter(
                MdCounters.DOORBELL_TYPE_ID, key, 0, keyLength, labelBuffer, 0, labelBuffer.capacity());
            final Doorbell doorbell = new Doorbell(state, socketPath, server, selector);
            isOpen = true;
            return doorbell;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a doorbell at " + socketPath, ex);
        }
        finally
        {
            if (!isOpen)
            {
                CloseHelper.quietCloseAll(selector, server);
                deleteQuietly(socketPath);
            }
        }
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
     * Whether a doorbell's key lists a stream (and is well formed).
     *
     * @param key       the counters' metadata.
     * @param keyOffset where the counter's key starts.
     * @param streamId  the stream a ringer publishes to.
     * @return true if the key names a path and lists the stream.
     */
    static boolean wakesFor(final DirectBuffer key, final int keyOffset, final int streamId)
    {
        if (pathLength(key, keyOffset) < 1)
        {
            return false;
        }
        final int count = key.getInt(keyOffset);
        for (int i = 0; i < count; i++)
        {
            if (key.getInt(keyOffset + Integer.BYTES * (1 + i)) == streamId)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The socket path a doorbell's key names.
     *
     * @param key       the counters' metadata.
     * @param keyOffset where the counter's key starts.
     * @return the path, or null if the key is malformed.
     */
    static String pathOf(final DirectBuffer key, final int keyOffset)
    {
        return pathLength(key, keyOffset) < 1 ? null :
            key.getStringUtf8(keyOffset + Integer.BYTES * (1 + key.getInt(keyOffset)));
    }

    /**
     * Key layout: stream count, the stream ids, the path's length in bytes, the path (UTF-8).
     */
    private static int pathLength(final DirectBuffer key, final int keyOffset)
    {
        final int count = key.getInt(keyOffset);
        if (count < 1 || count > MAX_KEY_BYTES / Integer.BYTES - 2)
        {
            return -1;
        }
        final int pathLength = key.getInt(keyOffset + Integer.BYTES * (1 + count));
        return pathLength < 1 || Integer.BYTES * (2 + count) + pathLength > MAX_KEY_BYTES ? -1 : pathLength;
    }

    /**
     * Delete the doorbell socket files in a directory that no process listens on any more: a process that crashed
     * leaves its file behind, and in {@code /tmp} nothing else would ever remove it. A file is stale when a connect to
     * it is refused, which holds whatever PID namespace its owner ran in (a driver directory may be shared with
     * containers), and only once it is older than {@code minAge}, so a socket between its bind and its listen is left
     * alone. A live doorbell that is asked wakes once for the connection (as for a new ringer) and then drops it.
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
        // in the driver's directory, or /tmp if that path is too long; a crashed owner's file is removed by a doorbell
        // opened there later (removeStaleSockets), or with the driver's directory
        return inAeronDir.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_PATH_BYTES ?
            inAeronDir : Path.of(System.getProperty("java.io.tmpdir")).resolve(file);
    }

    /**
     * Say the owner may block: from now on a ringer that publishes writes a byte. Poll the subscriptions once more
     * before {@link #await}, or a message published just before this call may wait for the timeout.
     */
    public void asleep()
    {
        state.set(ASLEEP);
    }

    /**
     * Say the owner runs: ringers stop writing.
     */
    public void awake()
    {
        state.setOrdered(AWAKE);
    }

    /**
     * Block until a ringer writes, a new ringer connects, or the timeout passes; then drain what was written.
     *
     * @param timeoutMs the longest wait, at least 1 ms.
     * @return the number of sockets that were ready (0 after a timeout).
     */
    public int await(final long timeoutMs)
    {
        try
        {
            final int ready = selector.select(onReady, timeoutMs);
            wakeUps += ready > 0 ? 1 : 0;
            return ready;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("doorbell " + socketPath, ex);
        }
    }

    private void onReady(final SelectionKey key)
    {
        try
        {
            if (key.isAcceptable())
            {
                final SocketChannel ringer = server.accept();
                if (null != ringer)
                {
                    ringer.configureBlocking(false);
                    ringer.register(selector, SelectionKey.OP_READ);
                }
                return;
            }
            final SocketChannel ringer = (SocketChannel)key.channel();
            int read;
            do
            {
                drainBuffer.clear();
                read = ringer.read(drainBuffer);
            }
            while (read == drainBuffer.capacity());
            if (read < 0)
            {
                key.cancel();
                ringer.close(); // the ringer closed or its process ended
            }
        }
        catch (final IOException ex)
        {
            key.cancel();
            CloseHelper.quietClose(key.channel());
        }
    }

    /**
     * @return the counter's id (for tests and tools).
     */
    public int counterId()
    {
        return state.id();
    }

    /**
     * @return the socket ringers write to.
     */
    public Path socketPath()
    {
        return socketPath;
    }

    /**
     * @return waits that ended because a ringer wrote or connected (not by timeout).
     */
    public long wakeUps()
    {
        return wakeUps;
    }

    /**
     * Withdraw the counter, close every ringer's connection and delete the socket.
     */
    @Override
    public void close()
    {
        CloseHelper.quietClose(state);
        for (final SelectionKey key : selector.keys())
        {
            CloseHelper.quietClose(key.channel());
        }
        CloseHelper.quietCloseAll(selector, server);
        deleteQuietly(socketPath);
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
