package io.mdhub.distributor;

import org.agrona.DirectBuffer;

/**
 * Hands every distributor event to two listeners in turn: the backbone publisher first (its latency matters), then
 * the caller's own listener (tools, tests). Two fixed fields rather than an array: nothing to iterate on the hot path.
 */
final class CompositeDistributorListener implements DistributorListener
{
    private final DistributorListener first;
    private final DistributorListener second;

    CompositeDistributorListener(final DistributorListener first, final DistributorListener second)
    {
        this.first = first;
        this.second = second;
    }

    @Override
    public void onServiceChanged(
        final int serviceId, final String serviceName, final int serviceState, final int acceptingRequests)
    {
        first.onServiceChanged(serviceId, serviceName, serviceState, acceptingRequests);
        second.onServiceChanged(serviceId, serviceName, serviceState, acceptingRequests);
    }

    @Override
    public void onItemRefresh(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        first.onItemRefresh(
            serviceId, itemHandle, domainType, refreshFlags, connectionId, name, rwf, rwfOffset, rwfLength);
        second.onItemRefresh(
            serviceId, itemHandle, domainType, refreshFlags, connectionId, name, rwf, rwfOffset, rwfLength);
    }

    @Override
    @SuppressWarnings("checkstyle:ParameterNumber") // primitives, not a message object (STYLE.md §1.1.4)
    public void onItemAnswer(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int refreshFlags,
        final long requestId,
        final long connectionId,
        final DirectBuffer name,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        first.onItemAnswer(serviceId, itemHandle, domainType, refreshFlags, requestId, connectionId, name, rwf,
            rwfOffset, rwfLength);
        second.onItemAnswer(serviceId, itemHandle, domainType, refreshFlags, requestId, connectionId, name, rwf,
            rwfOffset, rwfLength);
    }

    @Override
    public void onRequestRefused(
        final int serviceId,
        final long requestId,
        final int domainType,
        final int streamState,
        final int dataState,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        first.onRequestRefused(serviceId, requestId, domainType, streamState, dataState, rwf, rwfOffset, rwfLength);
        second.onRequestRefused(serviceId, requestId, domainType, streamState, dataState, rwf, rwfOffset, rwfLength);
    }

    @Override
    public void onItemUpdate(
        final int serviceId,
        final int itemHandle,
        final int domainType,
        final int updateType,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        first.onItemUpdate(serviceId, itemHandle, domainType, updateType, rwf, rwfOffset, rwfLength);
        second.onItemUpdate(serviceId, itemHandle, domainType, updateType, rwf, rwfOffset, rwfLength);
    }

    @Override
    public void onItemStatus(
        final int serviceId,
        final int itemHandle,
        final int streamState,
        final int dataState,
        final int stateCode,
        final DirectBuffer rwf,
        final int rwfOffset,
        final int rwfLength)
    {
        first.onItemStatus(serviceId, itemHandle, streamState, dataState, stateCode, rwf, rwfOffset, rwfLength);
        second.onItemStatus(serviceId, itemHandle, streamState, dataState, stateCode, rwf, rwfOffset, rwfLength);
    }

    @Override
    public void onItemGeneric(
        final int serviceId, final int itemHandle, final DirectBuffer rwf, final int rwfOffset, final int rwfLength)
    {
        first.onItemGeneric(serviceId, itemHandle, rwf, rwfOffset, rwfLength);
        second.onItemGeneric(serviceId, itemHandle, rwf, rwfOffset, rwfLength);
    }

    @Override
    public void onPostAck(
        final int consumerId,
        final int sourceIndex,
        final long postRequestId,
        final int serviceId,
        final int nakCode,
        final String text)
    {
        first.onPostAck(consumerId, sourceIndex, postRequestId, serviceId, nakCode, text);
        second.onPostAck(consumerId, sourceIndex, postRequestId, serviceId, nakCode, text);
    }

    @Override
    public void onItemDropped(final int serviceId, final int itemHandle, final int domainType)
    {
        first.onItemDropped(serviceId, itemHandle, domainType);
        second.onItemDropped(serviceId, itemHandle, domainType);
    }
}
