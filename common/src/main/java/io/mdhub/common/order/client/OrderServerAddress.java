package io.mdhub.common.order.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where one order server takes orders: the Aeron channel and stream id of its ingress subscription. Written
 * {@code channel@streamId} in configuration, e.g. {@code aeron:udp?endpoint=server-a:40501@3001}.
 */
public final class OrderServerAddress
{
    private final String channel;
    private final int streamId;

    /**
     * @param channel  the server's ingress channel.
     * @param streamId the server's ingress stream id.
     */
    public OrderServerAddress(final String channel, final int streamId)
    {
        if (null == channel || channel.isBlank())
        {
            throw new IllegalArgumentException("order server channel is empty");
        }
        this.channel = channel.trim();
        this.streamId = streamId;
    }

    /**
     * Read one {@code channel@streamId}; the stream id follows the last {@code @}.
     *
     * @param text the address.
     * @return the address.
     * @throws IllegalArgumentException if the text has no {@code @streamId} or the stream id is not a number.
     */
    public static OrderServerAddress parse(final String text)
    {
        final String trimmed = null == text ? "" : text.trim();
        final int at = trimmed.lastIndexOf('@');
        if (at <= 0 || at == trimmed.length() - 1)
        {
            throw new IllegalArgumentException("order server must be channel@streamId: '" + text + "'");
        }
        final int streamId;
        try
        {
            streamId = Integer.parseInt(trimmed.substring(at + 1).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("order server stream id is not a number: '" + text + "'", ex);
        }
        return new OrderServerAddress(trimmed.substring(0, at), streamId);
    }

    /**
     * Read a comma-separated list of {@code channel@streamId} (a channel that itself contains a comma must be given
     * through {@link OrderClient.Context#servers(List)} instead).
     *
     * @param text the list.
     * @return the addresses in order; empty for empty text.
     */
    public static List<OrderServerAddress> parseList(final String text)
    {
        final List<OrderServerAddress> servers = new ArrayList<>();
        if (null == text || text.isBlank())
        {
            return servers;
        }
        for (final String part : text.split(","))
        {
            servers.add(parse(part));
        }
        return servers;
    }

    /**
     * @return the ingress channel.
     */
    public String channel()
    {
        return channel;
    }

    /**
     * @return the ingress stream id.
     */
    public int streamId()
    {
        return streamId;
    }

    /**
     * @return {@code channel@streamId}.
     */
    @Override
    public String toString()
    {
        return channel + "@" + streamId;
    }

    /**
     * @param other another object.
     * @return true for the same channel and stream id.
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
        return streamId == that.streamId && channel.equals(that.channel);
    }

    /**
     * @return a hash of channel and stream id.
     */
    @Override
    public int hashCode()
    {
        return Objects.hash(channel, streamId);
    }
}
