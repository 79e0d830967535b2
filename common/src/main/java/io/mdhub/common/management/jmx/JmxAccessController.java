package io.mdhub.common.management.jmx;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.security.AccessController;
import java.util.Set;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.remote.JMXPrincipal;
import javax.management.remote.MBeanServerForwarder;
import javax.security.auth.Subject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.log.LogSummary;

/**
 * Stands between the remote connector and the MBean server and lets each request through by the role of the user who
 * makes it (the subject the connector runs the request as): a {@code monitor} reads (attributes, names, MBean info,
 * notifications), a {@code control} also invokes operations and sets attributes, and nobody creates, registers or
 * unregisters MBeans or has the server instantiate or deserialize classes remotely (the way a remote user would load
 * code into the process). A refusal is a {@link SecurityException} to the client, counted and logged in summary.
 * Without authentication (a lab) every request but those last ones is let through.
 */
final class JmxAccessController implements InvocationHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(JmxAccessController.class);
    private static final Set<String> READS = Set.of("getAttribute", "getAttributes", "queryNames", "queryMBeans",
        "getMBeanInfo", "isRegistered", "getMBeanCount", "getDefaultDomain", "getDomains", "isInstanceOf",
        "getObjectInstance", "addNotificationListener", "removeNotificationListener");
    /**
     * What the connector itself asks for to decode a request's arguments, outside the user's subject; a client has no
     * way to call them (a class loader does not travel).
     */
    private static final Set<String> CONNECTOR_INTERNALS =
        Set.of("getClassLoaderFor", "getClassLoader", "getClassLoaderRepository");
    private static final Set<String> WRITES = Set.of("invoke", "setAttribute", "setAttributes");

    private final String component;
    private final JmxUsers users;
    private final JmxCounters counters;
    private final LogSummary logSummary;
    private final MBeanServerForwarder forwarder;
    private volatile MBeanServer server;

    /**
     * @param component the server, for log lines.
     * @param users     the users and their roles, or null when logins are off.
     * @param counters  where refusals are counted.
     */
    JmxAccessController(final String component, final JmxUsers users, final JmxCounters counters)
    {
        this.component = component;
        this.users = users;
        this.counters = counters;
        this.logSummary = new LogSummary(LOG, component, "JMX requests refused", 1);
        this.forwarder = (MBeanServerForwarder)Proxy.newProxyInstance(MBeanServerForwarder.class.getClassLoader(),
            new Class<?>[] {MBeanServerForwarder.class}, this);
    }

    /**
     * @return the forwarder to give the connector server.
     */
    MBeanServerForwarder forwarder()
    {
        return forwarder;
    }

    @Override
    public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable
    {
        final String name = method.getName();
        switch (name)
        {
            case "getMBeanServer":
                return server;
            case "setMBeanServer":
                server = (MBeanServer)args[0];
                return null;
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "toString":
                return "JmxAccessController[" + component + "]";
            default:
                check(name, args);
                try
                {
                    return method.invoke(server, args);
                }
                catch (final InvocationTargetException ex)
                {
                    throw ex.getCause();
                }
        }
    }

    /**
     * @return the pending summaries, written (at close).
     */
    void flush()
    {
        logSummary.flush();
    }

    private void check(final String method, final Object[] args)
    {
        if (CONNECTOR_INTERNALS.contains(method))
        {
            return;
        }
        final boolean isRead = READS.contains(method);
        final boolean isWrite = WRITES.contains(method);
        final String user = null == users ? null : user();
        final JmxRole role = null == users ? JmxRole.CONTROL : (null == user ? null : users.roleOf(user));
        if (isRead && null != role || isWrite && JmxRole.CONTROL == role)
        {
            return;
        }
        counters.accessDenied().increment();
        String target = "";
        for (int i = 0; null != args && i < args.length && target.isEmpty(); i++)
        {
            target = args[i] instanceof ObjectName ? String.valueOf(args[i]) : "";
        }
        final String operation = "invoke".equals(method) && null != args && args.length > 1 ? " " + args[1] : "";
        final String who = (null == user ? "(anonymous)" : user) + " (" +
            (null == role ? "no role" : role.name().toLowerCase()) + ")";
        if (logSummary.admit(0, "denied", true, "user=" + who + " " + method + operation + " " + target))
        {
            LOG.warn("{}: JMX request refused: user={} {}{} {}", component, who, method, operation, target);
        }
        throw new SecurityException(isWrite ?
            "user " + who + " may not " + method + ": that needs the control role" :
            "no remote user may " + method + " (MBeans are not created, removed or loaded remotely)");
    }

    @SuppressWarnings("removal") // the connector runs each request as the subject: the JDK's own controllers read it so
    private static String user()
    {
        final Subject subject = Subject.getSubject(AccessController.getContext());
        if (null == subject)
        {
            return null;
        }
        for (final JMXPrincipal principal : subject.getPrincipals(JMXPrincipal.class))
        {
            return principal.getName();
        }
        return null;
    }
}
