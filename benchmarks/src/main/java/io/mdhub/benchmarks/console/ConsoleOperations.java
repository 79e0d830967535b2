package io.mdhub.benchmarks.console;

import java.util.Set;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * What the console may do to a process, through the operations its MBeans already offer, each asked for with a key
 * and done only once confirmed: a p2p-server or distributor drops one of its connections (keys 1-9, as listed in
 * the details); an order server steps down or back ({@code s}/{@code r}) or takes over its peer's partitions
 * ({@code t}).
 */
final class ConsoleOperations
{
    private ConsoleOperations()
    {
    }

    /**
     * An operation waiting for its confirmation.
     */
    interface Pending
    {
        /**
         * @return what it will do, for the question.
         */
        String what();

        /**
         * Do it.
         *
         * @return what happened.
         */
        String confirm();
    }

    /**
     * @param row a process.
     * @return the keys its operations answer to, for the details' menu.
     */
    static String menu(final ProcessRow row)
    {
        final StringBuilder menu = new StringBuilder();
        if (row.role().startsWith("p2p") || "distributor".equals(row.role()))
        {
            menu.append("1-9 drop that connection");
        }
        if (row.role().endsWith("order"))
        {
            menu.append(menu.length() > 0 ? ", " : "").append("s step down, r step back up, t take over the peer's " +
                "partitions");
        }
        return menu.length() > 0 ? menu.toString() : "none";
    }

    /**
     * @param model     the console's model (its connections).
     * @param row       the process selected.
     * @param character the key pressed.
     * @return the operation that key asks for, or null when it asks for none.
     */
    static Pending ask(final ConsoleModel model, final ProcessRow row, final Character character)
    {
        final MBeanServerConnection connection = model.connectionOf(row.target());
        final ProcessSample sample = model.sample(row.target());
        if (null == connection || null == sample || null == character)
        {
            return null;
        }
        if (Character.isDigit(character) && '0' != character && (row.role().startsWith("p2p") ||
            "distributor".equals(row.role())))
        {
            final int index = character - '1';
            if (index >= sample.connections.length)
            {
                return null;
            }
            final String line = sample.connections[index];
            final long id = connectionId(line);
            if (id < 0)
            {
                return null;
            }
            final String type = "distributor".equals(row.role()) ? "Distributor" : "P2pServer";
            return operation("drop connection " + line + " of " + row.target(), connection, type,
                "dropConnection", new Object[] {id}, new String[] {long.class.getName()});
        }
        if (row.role().endsWith("order"))
        {
            return switch (character)
            {
                case 's' -> operation("step " + row.target() + " down", connection, "OrderService", "stepDown",
                    new Object[] {true}, new String[] {boolean.class.getName()});
                case 'r' -> operation("end the step-down of " + row.target(), connection, "OrderService",
                    "stepDown", new Object[] {false}, new String[] {boolean.class.getName()});
                case 't' -> operation("let " + row.target() + " take over its peer's partitions", connection,
                    "OrderService", "takeOverPeerPartitions", new Object[] {"from the console"},
                    new String[] {String.class.getName()});
                default -> null;
            };
        }
        return null;
    }

    /**
     * @param line a connection as the server lists it ({@code worker=0 id=7 remote=...}).
     * @return its id, or -1.
     */
    static long connectionId(final String line)
    {
        for (final String word : line.split("\\s+"))
        {
            if (word.startsWith("id="))
            {
                try
                {
                    return Long.parseLong(word.substring("id=".length()));
                }
                catch (final NumberFormatException ex)
                {
                    return -1;
                }
            }
        }
        return -1;
    }

    private static Pending operation(
        final String what,
        final MBeanServerConnection connection,
        final String type,
        final String name,
        final Object[] arguments,
        final String[] signature)
    {
        return new Pending()
        {
            @Override
            public String what()
            {
                return what;
            }

            @Override
            public String confirm()
            {
                try
                {
                    final Set<ObjectName> beans =
                        connection.queryNames(ProcessReader.name("io.mdhub:type=" + type + ",*"), null);
                    if (beans.isEmpty())
                    {
                        return what + ": no " + type + " bean";
                    }
                    final Object result = connection.invoke(beans.iterator().next(), name, arguments, signature);
                    return what + ": " + (null == result ? "done" : result);
                }
                catch (final Exception ex)
                {
                    return what + ": failed: " + ex.getMessage();
                }
            }
        };
    }
}
