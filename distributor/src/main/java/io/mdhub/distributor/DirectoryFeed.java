package io.mdhub.distributor;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.rwf.eta.DirectoryRefreshDecoder;
import io.netty.buffer.ByteBuf;

/**
 * Applies a provider's source directory (refresh and updates, normally on stream -1) to the merged
 * {@link ServiceDirectory}: maps the provider's service ids onto distributor services by name, tracks service state
 * and tells the listener about every change; the GROUP filter's group statuses and merges go to {@link ItemGroups}.
 * Directory messages are rare admin traffic, so ETA decodes them whole.
 */
final class DirectoryFeed
{
    private static final Logger LOG = LoggerFactory.getLogger(DirectoryFeed.class);

    private final DistributorCore core;
    private final DirectoryRefreshDecoder refreshDecoder = new DirectoryRefreshDecoder();
    private final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();

    DirectoryFeed(final DistributorCore core)
    {
        this.core = core;
    }

    void onMessage(final ProviderLink session, final ByteBuf message)
    {
        final int msgClass = core.msg.msgClass();
        if (MsgClasses.REFRESH != msgClass && MsgClasses.UPDATE != msgClass)
        {
            core.counters.messagesDropped().increment();
            return;
        }
        if (CodecReturnCodes.SUCCESS != core.reader.read(message, message.readerIndex(), message.readableBytes()))
        {
            session.disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN, "directory message header");
            return;
        }
        final List<Service> services;
        if (MsgClasses.REFRESH == msgClass)
        {
            final int result = refreshDecoder.decode(core.reader);
            if (CodecReturnCodes.SUCCESS != result)
            {
                session.disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN,
                    "directory refresh: " + CodecReturnCodes.toString(result));
                return;
            }
            services = refreshDecoder.services();
        }
        else
        {
            update.clear();
            update.rdmMsgType(DirectoryMsgType.UPDATE);
            int result;
            try
            {
                result = update.decode(core.reader.iterator(), core.reader.msg());
            }
            catch (final RuntimeException ex)
            {
                // ETA's RDM decoders throw at some malformed input (a ClassCastException where a container's type
                // names another container) instead of answering with a code: the provider's bad message all the same
                result = CodecReturnCodes.FAILURE;
            }
            if (CodecReturnCodes.SUCCESS != result)
            {
                session.disconnect(ProviderDisconnectReason.UNDECODABLE_ADMIN,
                    "directory update: " + CodecReturnCodes.toString(result));
                return;
            }
            services = update.serviceList();
        }
        for (int i = 0; i < services.size(); i++)
        {
            apply(session, services.get(i));
        }
        if (session.isRoute())
        {
            core.sinkItems.rehome(); // items that lost their connection may move to this one
        }
    }

    private void apply(final ProviderLink session, final Service announced)
    {
        final int providerServiceId = announced.serviceId();
        DistributedService service = session.service(providerServiceId);
        if (MapEntryActions.DELETE == announced.action())
        {
            if (null != service)
            {
                session.unmapService(providerServiceId);
                leave(session, service);
            }
            return;
        }
        boolean changed = false;
        if (null == service)
        {
            if (!announced.checkHasInfo())
            {
                core.counters.messagesDropped().increment();
                return;
            }
            final String name = announced.info().serviceName().toString();
            if (!session.isRoute() && !core.entitlements.mayPublish(session.userName(), name, session.connectionId()))
            {
                return; // not mapped: the service's item messages are dropped as of an unknown service
            }
            service = core.directory.findOrAdd(name, providerServiceId);
            if (null == service)
            {
                LOG.warn("{}: service limit reached, ignoring service {} of provider connection {}",
                    core.component, name, session.connectionId());
                return;
            }
            session.mapService(providerServiceId, service);
            service.addProvider(session);
            if (session.isRoute())
            {
                service.sinkDriven(core.sinkItems.isCaching());
            }
            changed = true;
        }
        if (announced.checkHasInfo())
        {
            service.copyInfo(announced);
        }
        if (announced.checkHasState())
        {
            final int accepting = announced.state().checkHasAcceptingRequests() ?
                (int)announced.state().acceptingRequests() : 1;
            changed |= service.providerState(session, (int)announced.state().serviceState(), accepting);
        }
        if (changed)
        {
            core.listener.onServiceChanged(service.id(), service.name(), service.serviceState(),
                service.acceptingRequests());
        }
        core.groups.apply(session, service, announced.groupStateList());
    }

    /**
     * A provider stops publishing a service (it left, or deleted the service): its state no longer counts, and the
     * service goes down once no provider publishes it.
     */
    void leave(final ProviderLink session, final DistributedService service)
    {
        if (service.removeProvider(session))
        {
            core.listener.onServiceChanged(service.id(), service.name(), service.serviceState(),
                service.acceptingRequests());
        }
    }
}
