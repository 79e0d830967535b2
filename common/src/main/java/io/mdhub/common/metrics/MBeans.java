package io.mdhub.common.metrics;

import java.lang.management.ManagementFactory;
import java.util.Hashtable;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Registers management beans the same way for every component: in the platform MBeanServer, named
 * {@code io.mdhub:type=<Type>,name=<name>}. A component exposes its stats as MXBean attributes and its commands
 * (reset, dump, close a session, ...) as MXBean operations, so JConsole, VisualVM, jmxterm and our console can all
 * drive it. Operations run on a JMX thread: implementations hand work to the owning agent (e.g. through a bounded
 * queue) instead of touching agent state directly.
 */
public final class MBeans
{
    private static final String MXBEAN_SUFFIX = "MXBean";

    private MBeans()
    {
    }

    /**
     * Build the ObjectName {@code io.mdhub:type=<type>,name=<name>}, quoting the name when it holds characters an
     * ObjectName value may not.
     *
     * @param type the kind of bean, e.g. {@code Backbone}.
     * @param name the instance, e.g. a component or session name.
     * @return the name.
     */
    public static ObjectName objectName(final String type, final String name)
    {
        final Hashtable<String, String> properties = new Hashtable<>();
        properties.put("type", valueOf(type));
        properties.put("name", valueOf(name));
        try
        {
            return new ObjectName(MdMetrics.JMX_DOMAIN, properties);
        }
        catch (final MalformedObjectNameException ex)
        {
            throw new IllegalArgumentException("bad MBean name type=" + type + " name=" + name, ex);
        }
    }

    /**
     * Register an MXBean whose type is the simple name of its {@code *MXBean} interface without the suffix, e.g.
     * a {@code BackboneMXBean} implementation becomes {@code io.mdhub:type=Backbone,name=<name>}.
     *
     * @param name   the instance name.
     * @param mxbean an object implementing exactly one {@code *MXBean} interface.
     * @return the ObjectName it was registered under.
     */
    public static ObjectName register(final String name, final Object mxbean)
    {
        return register(typeOf(mxbean), name, mxbean);
    }

    /**
     * Register an MXBean (or standard MBean) under {@code io.mdhub:type=<type>,name=<name>}.
     *
     * @param type   the kind of bean.
     * @param name   the instance name.
     * @param mxbean the bean.
     * @return the ObjectName it was registered under.
     * @throws IllegalStateException    if a bean is already registered under that name.
     * @throws IllegalArgumentException if the object is not a compliant MBean.
     */
    public static ObjectName register(final String type, final String name, final Object mxbean)
    {
        final ObjectName objectName = objectName(type, name);
        try
        {
            server().registerMBean(mxbean, objectName);
            return objectName;
        }
        catch (final InstanceAlreadyExistsException ex)
        {
            throw new IllegalStateException("MBean already registered: " + objectName, ex);
        }
        catch (final JMException ex)
        {
            throw new IllegalArgumentException("cannot register MBean " + objectName + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Unregister a bean; does nothing if it is not registered (so close paths can call it unconditionally).
     *
     * @param objectName the name returned by {@code register}, may be null.
     */
    public static void unregister(final ObjectName objectName)
    {
        if (null == objectName)
        {
            return;
        }
        try
        {
            server().unregisterMBean(objectName);
        }
        catch (final InstanceNotFoundException ignore)
        {
            // already gone: unregistering is idempotent by contract
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("cannot unregister MBean " + objectName, ex);
        }
    }

    /**
     * @return the platform MBeanServer every MDHub bean lives in.
     */
    public static MBeanServer server()
    {
        return ManagementFactory.getPlatformMBeanServer();
    }

    private static String typeOf(final Object mxbean)
    {
        String type = null;
        for (Class<?> cls = mxbean.getClass(); null != cls; cls = cls.getSuperclass())
        {
            for (final Class<?> iface : cls.getInterfaces())
            {
                final String simpleName = iface.getSimpleName();
                if (simpleName.endsWith(MXBEAN_SUFFIX) && simpleName.length() > MXBEAN_SUFFIX.length())
                {
                    if (null != type && !type.equals(simpleName))
                    {
                        throw new IllegalArgumentException(
                            mxbean.getClass().getName() + " implements several MXBean interfaces; pass the type");
                    }
                    type = simpleName;
                }
            }
        }
        if (null == type)
        {
            throw new IllegalArgumentException(mxbean.getClass().getName() + " implements no *MXBean interface");
        }
        return type.substring(0, type.length() - MXBEAN_SUFFIX.length());
    }

    private static String valueOf(final String value)
    {
        if (null == value || value.isEmpty())
        {
            throw new IllegalArgumentException("MBean type and name must not be empty");
        }
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            if (c == ',' || c == '=' || c == ':' || c == '"' || c == '*' || c == '?' || c == '\\' || c == '\n')
            {
                return ObjectName.quote(value);
            }
        }
        return value;
    }
}
