package io.mdhub.common.ripc;

import io.netty.channel.Channel;

/**
 * How an application puts its handlers into a RIPC pipeline: called once per connection, before the handshake,
 * from the component's {@code ChannelInitializer}. Add handlers with {@code channel.pipeline().addLast(...)}; the
 * RIPC error handler is appended after the hook returns. See {@link RipcPipeline} for what the handlers receive
 * and own.
 */
@FunctionalInterface
public interface RipcChannelHook
{
    /**
     * Add application handlers.
     *
     * @param channel the new connection.
     */
    void initChannel(Channel channel);
}
