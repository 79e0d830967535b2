package io.mdhub.common.order.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where one order server takes order clients: a TCP {@code host:port}, e.g. {@code server-a:40501} or
 * {@code [::1]:40501}.
 */
public final class OrderServerAddress
{
    private final String host;
    private final int port;

    /**
     * @param host the server's host name or address.
     * @param port its order port.
     */
    public OrderServerAddress(final String host, final int port)
    {
        if (null == host || host.isBlank())
        {
            throw new IllegalArgumentException("order server host is empty");
        }
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("order server port must be 1 to 65535: " + port);
        }
        this.host = host.trim();
        this.port = port;
    }

    /**
     * Read one {@code host:port}; the port follows the last {@code :}, and an IPv6 host is written in brackets.
     *
     * @param text the address.
     * @return the address.
     * @throws IllegalArgumentException if the text has no {@code :port} or the port is not a number.
     */
    public static OrderServerAddress parse(final String text)
    {
        final String trimmed = null == text ? "" : text.trim();
        final int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1)
        {
            throw new IllegalArgumentException("order server must be host:port: '" + text + "'");
        }
        final int port;
        try
        {
            port = Integer.parseInt(trimmed.substring(colon + 1).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("order server port is not a number: '" + text + "'", ex);
        }
        String host = trimmed.substring(0, colon).trim();
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        return new OrderServerAddress(host, port);
    }

    /**
     * Read a comma-separated list of {@code host:port}.
     *
     * @param text the list; empty gives an empty list.
     * @return the addresses in order.
     */
    public static List<OrderServerAddress> parseList(final String text)
    {
        final List<OrderServerAddress> addresses = new ArrayList<>();
        if (null == text || text.isBlank())
        {
            return addresses;
        }
        for (final String part : text.split(","))
        {
            addresses.add(parse(part));
        }
        return addresses;
    }

    /**
     * @return the host.
     */
    public String host()
    {
        return host;
    }

    /**
     * @return the port.
     */
    public int port()
    {
        return port;
    }

    /**
     * @return an unresolved socket address (resolved when connecting).
     */
    public InetSocketAddress socketAddress()
    {
        return new InetSocketAddress(host, port);
    }

    /**
     * @return {@code host:port}.
     */
    @Override
    public String toString()
    {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * @return true for the same host and port.
     */
    @Override
    public boolean equals(final Object other)
    {
        if (this == other)
        {
            return true;
        }
        if (!(other instanceof OrderServerAddress))
        {
            return false;
        }
        final OrderServerAddress that = (OrderServerAddress)other;
        return port == that.port && host.equals(that.host);
    }

    /**
     * @return a hash of host and port.
     */
    @Override
    public int hashCode()
    {
        return Objects.hash(host, port);
    }
}
