package io.mdhub.benchmarks.console;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;

/**
 * The MDHub servers of this host: JVMs whose command runs one of the server jars ({@code mdhub-backbone.jar},
 * {@code mdhub-distributor.jar}, {@code mdhub-p2p.jar}), found through the attach API as {@code jcmd} finds them.
 * Reading one starts its local JMX agent (as JConsole does), which listens on loopback only; the console must run as
 * the same user as the servers.
 */
final class LocalProcesses
{
    /** The jars whose JVMs are MDHub servers. */
    static final List<String> SERVER_JARS = List.of("mdhub-backbone.jar", "mdhub-distributor.jar", "mdhub-p2p.jar");

    private LocalProcesses()
    {
    }

    /**
     * @return the servers running now, by process id.
     */
    static List<ConsoleTarget> find()
    {
        final long self = ProcessHandle.current().pid();
        final List<ConsoleTarget> targets = new ArrayList<>();
        for (final VirtualMachineDescriptor descriptor : VirtualMachine.list())
        {
            final String jar = serverJar(descriptor.displayName());
            if (null != jar && !Long.toString(self).equals(descriptor.id()))
            {
                targets.add(new Local(descriptor, jar));
            }
        }
        return targets;
    }

    /**
     * @param command a JVM's display name: its main class or jar, then its arguments.
     * @return the server jar it runs, or null.
     */
    static String serverJar(final String command)
    {
        final String main = command.split("\\s+", 2)[0];
        for (final String jar : SERVER_JARS)
        {
            if (main.endsWith(jar))
            {
                return jar;
            }
        }
        return null;
    }

    private static final class Local implements ConsoleTarget
    {
        private final VirtualMachineDescriptor descriptor;
        private final String jar;
        private JMXServiceURL url;

        Local(final VirtualMachineDescriptor descriptor, final String jar)
        {
            this.descriptor = descriptor;
            this.jar = jar;
        }

        @Override
        public String label()
        {
            return "pid " + descriptor.id();
        }

        @Override
        public synchronized JMXServiceURL serviceUrl() throws IOException
        {
            if (null == url)
            {
                try
                {
                    final VirtualMachine vm = VirtualMachine.attach(descriptor);
                    try
                    {
                        url = new JMXServiceURL(vm.startLocalManagementAgent());
                    }
                    finally
                    {
                        vm.detach();
                    }
                }
                catch (final AttachNotSupportedException ex)
                {
                    throw new IOException("cannot attach to " + jar + " pid " + descriptor.id() + ": " +
                        ex.getMessage(), ex);
                }
            }
            return url;
        }

        @Override
        public String toString()
        {
            return label() + " " + jar;
        }
    }
}
