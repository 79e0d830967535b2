package io.mdhub.benchmarks.peers;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code bench latency} measures MDHub beside: the pub/sub products a user would pick instead of MDHub for
 * fanning out market data on one host, each run from its distribution's server binary on its defaults (bound to
 * loopback, nothing persisted), the floors of this host for a path of one and of two relays ({@link TcpRelayMain}:
 * blocking sockets, nothing decoded), MDHub's path having two (distributor, p2p-server), and MDHub between ETA
 * applications.
 */
public enum PeerSystem
{
    /** Redis pub/sub: {@code apt-get install redis-server}. */
    REDIS("Redis pub/sub (Jedis)", "redis-server", "redis-server")
    {
        @Override
        public List<String> serverCommand(final Path binary, final int port)
        {
            // no RDB snapshots or AOF: pub/sub keeps nothing, and the disk stays out of the measurement
            return List.of(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no");
        }

        @Override
        PeerPublisher publisher(final int port, final String[] names)
        {
            return RedisPeer.publisher(port, names);
        }

        @Override
        PeerSubscriber subscriber(final int port, final String[] names)
        {
            return RedisPeer.subscriber(port, names);
        }
    },

    /** NATS core pub/sub: {@code apt-get install nats-server}. */
    NATS("NATS (jnats)", "nats-server", "nats-server")
    {
        @Override
        public List<String> serverCommand(final Path binary, final int port)
        {
            return List.of(binary.toString(), "-a", "127.0.0.1", "-p", Integer.toString(port));
        }

        @Override
        PeerPublisher publisher(final int port, final String[] names)
        {
            return NatsPeer.publisher(port, names);
        }

        @Override
        PeerSubscriber subscriber(final int port, final String[] names)
        {
            return NatsPeer.subscriber(port, names);
        }
    },

    /**
     * MDHub itself on its defaults (backbone, distributor, p2p-server) between the applications users connect: an ETA
     * non-interactive provider publishing to the distributor and an ETA consumer of the p2p-server.
     */
    MDHUB_ETA("MDHub (defaults; ETA provider and consumer)", null, null)
    {
        @Override
        public boolean isMdhub()
        {
            return true;
        }

        @Override
        PeerPublisher publisher(final int port, final String[] names)
        {
            return new EtaNiPublisher(port, names);
        }

        @Override
        PeerSubscriber subscriber(final int port, final String[] names)
        {
            return new EtaConsumerSubscriber(port, names);
        }
    },

    /** The floor of one relay: publisher → tcp-relay → subscriber. */
    RELAY("1 TCP relay (floor)", null, null)
    {
        @Override
        public int relays()
        {
            return 1;
        }
    },

    /** The floor of two relays, as many as MDHub's path has: publisher → tcp-relay → tcp-relay → subscriber. */
    RELAY2("2 TCP relays (floor)", null, null)
    {
        @Override
        public int relays()
        {
            return 2;
        }
    };

    /** Where distributions put server binaries that a non-root PATH often lacks. */
    private static final List<Path> SYSTEM_BINARY_DIRS = List.of(Path.of("/usr/sbin"), Path.of("/usr/local/sbin"));

    private final String label;
    private final String binaryName;
    private final String debianPackage;

    PeerSystem(final String label, final String binaryName, final String debianPackage)
    {
        this.label = label;
        this.binaryName = binaryName;
        this.debianPackage = debianPackage;
    }

    /**
     * @return the name reports use.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return the name {@code --peers} takes.
     */
    public String optionName()
    {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @return the Debian package that installs the server.
     */
    public String debianPackage()
    {
        return debianPackage;
    }

    /**
     * @return the server's binary name.
     */
    public String binaryName()
    {
        return binaryName;
    }

    /**
     * @return the server binary on the PATH (or in /usr/sbin, where Debian puts nats-server), or null when absent.
     */
    public Path findServer()
    {
        if (null == binaryName)
        {
            return null;
        }
        final List<Path> dirs = new ArrayList<>();
        final String path = System.getenv("PATH");
        if (null != path)
        {
            for (final String dir : path.split(File.pathSeparator))
            {
                if (!dir.isEmpty())
                {
                    dirs.add(Path.of(dir));
                }
            }
        }
        dirs.addAll(SYSTEM_BINARY_DIRS);
        for (final Path dir : dirs)
        {
            final Path candidate = dir.resolve(binaryName);
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    /**
     * @return true for MDHub's own processes between the publisher and the subscriber: the distributor takes the
     * publisher's connection and the p2p-server the subscriber's, and items exist once the publisher has published
     * them.
     */
    public boolean isMdhub()
    {
        return false;
    }

    /**
     * @return the {@code tcp-relay} processes of a floor, 0 for a product with a server binary.
     */
    public int relays()
    {
        return 0;
    }

    /**
     * @param binary the server binary ({@link #findServer()}).
     * @param port   its port on loopback.
     * @return the command line that runs the server in the foreground.
     */
    public List<String> serverCommand(final Path binary, final int port)
    {
        throw new UnsupportedOperationException(label + " has no server binary");
    }

    PeerPublisher publisher(final int port, final String[] names)
    {
        return RelayPeer.publisher(port);
    }

    PeerSubscriber subscriber(final int port, final String[] names)
    {
        return RelayPeer.subscriber(port, names.length);
    }

    /**
     * @param name as {@code --peers} or {@code --system} give it.
     * @return the system.
     * @throws IllegalArgumentException naming the known ones.
     */
    public static PeerSystem of(final String name)
    {
        for (final PeerSystem system : values())
        {
            if (system.optionName().equals(name.trim().toLowerCase(Locale.ROOT)))
            {
                return system;
            }
        }
        throw new IllegalArgumentException("unknown peer '" + name + "': redis, nats, mdhub-eta, relay or relay2");
    }
}
