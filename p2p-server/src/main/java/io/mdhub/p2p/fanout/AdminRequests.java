package io.mdhub.p2p.fanout;

import java.util.ArrayList;

import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import io.mdhub.common.entitlement.UserRights;
import io.mdhub.common.rwf.RwfMsgDescriptor;
import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.p2p.DisconnectReason;
import io.mdhub.p2p.P2pCounters;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.source.ItemSource;
import io.mdhub.p2p.source.ServiceInfo;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin domains of a worker's consumers: Login (accept, refuse, log off, and a login the entitlements no longer
 * allow), Source Directory (a refresh for a filter and an optional service, kept streaming: the services that
 * change, appear or go, and those a change of the entitlements shows or hides) and Dictionary (RWFFld and RWFEnum).
 * The directory is the worker's {@link DirectoryView}, read from the item source at its first use. Answers are
 * encoded by the {@link AdminResponder}. Worker thread only.
 */
final class AdminRequests
{
    private static final Logger LOG = LoggerFactory.getLogger(AdminRequests.class);

    private final WorkerSettings settings;
    private final P2pCounters counters;
    private final AdminResponder responder;
    private final DirectoryView directory;
    private final ItemSource source;
    private final EntitlementChecks entitlements;
    private final StreamReplies replies;
    private final ConsumerRequests requests;
    private final ArrayList<ConsumerSession> sessions;
    private final ArrayList<Service> changedServices = new ArrayList<>(1);

    /**
     * @param settings     the server's settings (name, counters).
     * @param responder    encodes the answers; its decoders read the requests.
     * @param directory    the worker's directory.
     * @param source       the worker's item source, which the directory is read from.
     * @param entitlements who may log in and see which service.
     * @param replies      rejects and ignores.
     * @param requests     ends the streams of a login that ends.
     * @param sessions     the worker's connections (read only here): the directory watchers among them.
     */
    @SuppressWarnings("checkstyle:ParameterNumber") // the worker's parts this one works with
    AdminRequests(
        final WorkerSettings settings,
        final AdminResponder responder,
        final DirectoryView directory,
        final ItemSource source,
        final EntitlementChecks entitlements,
        final StreamReplies replies,
        final ConsumerRequests requests,
        final ArrayList<ConsumerSession> sessions)
    {
        this.settings = settings;
        this.counters = settings.counters();
        this.responder = responder;
        this.directory = directory;
        this.source = source;
        this.entitlements = entitlements;
        this.replies = replies;
        this.requests = requests;
        this.sessions = sessions;
    }

    // ---------------------------------------------------------------- login

    void onLoginMessage(final ConsumerSession session, final RwfMsgFlyweight inbound, final ByteBuf message)
    {
        final int streamId = inbound.streamId();
        if (RwfMsgDescriptor.CLOSE == inbound.msgClass())
        {
            if (session.isLoggedIn && streamId == session.loginStreamId)
            {
                // closing the login stream logs off: every stream of the user goes with it
                requests.logOff(session, "logoff");
                session.startLoginClock(System.nanoTime());
            }
            return;
        }
        if (RwfMsgDescriptor.REQUEST != inbound.msgClass())
        {
            replies.ignore(session, inbound, "on the login domain");
            return;
        }
        if (!isRead(message) || CodecReturnCodes.SUCCESS != responder.loginDecoder.decode(responder.reader))
        {
            counters.rejected(RejectReason.MALFORMED_REQUEST).increment();
            session.write(responder.loginReject(session, streamId, StateCodes.USAGE_ERROR, "Malformed login request"));
            session.closeAfterLinger(DisconnectReason.LOGIN_REJECTED, "malformed login request");
            return;
        }
        if (responder.loginDecoder.isProvider())
        {
            counters.rejected(RejectReason.PROVIDER_LOGIN).increment();
            session.write(responder.loginReject(session, streamId, StateCodes.USAGE_ERROR,
                "Provider logins are not accepted by " + settings.componentName() + ": publish through a distributor"));
            session.closeAfterLinger(DisconnectReason.LOGIN_REJECTED,
                "provider-role login by " + responder.loginDecoder.request().userName());
            return;
        }
        final String denial = entitlements.login(session, responder.loginDecoder.request(), System.nanoTime());
        if (null != denial)
        {
            counters.rejected(entitlements.loginRejectReason()).increment();
            session.write(responder.loginReject(session, streamId, StateCodes.NOT_ENTITLED, denial));
            session.closeAfterLinger(DisconnectReason.LOGIN_REJECTED, "login refused: " + denial);
            return;
        }
        if (!session.isLoggedIn)
        {
            counters.loginsAccepted().increment();
        }
        session.isLoggedIn = true;
        session.loginStreamId = streamId;
        session.write(responder.loginAccept(session));
    }

    // ---------------------------------------------------------------- directory

    void onDirectoryMessage(final ConsumerSession session, final RwfMsgFlyweight inbound, final ByteBuf message)
    {
        final int streamId = inbound.streamId();
        if (RwfMsgDescriptor.CLOSE == inbound.msgClass())
        {
            if (streamId == session.directoryStreamId)
            {
                session.directoryStreamId = 0;
            }
            return;
        }
        if (RwfMsgDescriptor.REQUEST != inbound.msgClass())
        {
            replies.ignore(session, inbound, "on the source directory domain");
            return;
        }
        if (!isRead(message) ||
            CodecReturnCodes.SUCCESS != responder.directoryDecoder.decode(responder.reader))
        {
            replies.reject(session, DomainTypes.SOURCE, streamId, RejectReason.MALFORMED_REQUEST,
                StateCodes.USAGE_ERROR, "Malformed source directory request");
            return;
        }
        directory.ensureLoaded(source);
        int serviceId = responder.directoryDecoder.serviceId();
        if (null != responder.directoryDecoder.serviceName())
        {
            serviceId = directory.serviceIdByName(responder.directoryDecoder.serviceName());
        }
        if ((null != responder.directoryDecoder.serviceName() || serviceId >= 0) && null == directory.info(serviceId))
        {
            replies.reject(session, DomainTypes.SOURCE, streamId, RejectReason.UNKNOWN_SERVICE,
                StateCodes.SOURCE_UNKNOWN, "Unknown service");
            return;
        }
        if (serviceId >= 0 && !entitlements.mayUseService(session, directory.info(serviceId)))
        {
            replies.reject(session, DomainTypes.SOURCE, streamId, RejectReason.NOT_ENTITLED, StateCodes.NOT_ENTITLED,
                "User " + session.userName + " is not entitled to service " + directory.info(serviceId).name());
            return;
        }
        final long filter = responder.directoryDecoder.filter();
        session.write(responder.directoryRefresh(session, streamId, filter, serviceId,
            entitlements.visibleServices(session, directory.services(), directory)));
        if (responder.directoryDecoder.streaming())
        {
            session.directoryStreamId = streamId;
            session.directoryFilter = filter;
            session.directoryServiceId = serviceId;
        }
        else if (streamId == session.directoryStreamId)
        {
            session.directoryStreamId = 0;
        }
    }

    private void notifyDirectoryWatchers(final Service change, final ServiceInfo info)
    {
        changedServices.clear();
        changedServices.add(change);
        for (int i = 0, size = sessions.size(); i < size; i++)
        {
            final ConsumerSession session = sessions.get(i);
            if (0 != session.directoryStreamId && !session.isClosing &&
                (session.directoryServiceId < 0 || session.directoryServiceId == change.serviceId()) &&
                entitlements.mayUseService(session, info))
            {
                session.write(responder.directoryUpdate(
                    session, session.directoryStreamId, session.directoryFilter, changedServices));
            }
        }
        changedServices.clear();
    }

    // ---------------------------------------------------------------- dictionary

    void onDictionaryMessage(final ConsumerSession session, final RwfMsgFlyweight inbound, final ByteBuf message)
    {
        if (RwfMsgDescriptor.REQUEST != inbound.msgClass())
        {
            if (RwfMsgDescriptor.CLOSE != inbound.msgClass()) // a dictionary is sent whole: its close has no work
            {
                replies.ignore(session, inbound, "on the dictionary domain");
            }
            return;
        }
        final int streamId = inbound.streamId();
        if (!isRead(message) ||
            CodecReturnCodes.SUCCESS != responder.dictionaryDecoder.decode(responder.reader))
        {
            replies.reject(session, DomainTypes.DICTIONARY, streamId, RejectReason.MALFORMED_REQUEST,
                StateCodes.USAGE_ERROR, "Malformed dictionary request");
            return;
        }
        final boolean isField = responder.dictionaryDecoder.isFieldDictionary();
        if (!isField && !responder.dictionaryDecoder.isEnumTypeDictionary())
        {
            replies.reject(session, DomainTypes.DICTIONARY, streamId, RejectReason.UNKNOWN_DICTIONARY,
                StateCodes.NOT_FOUND,
                "Dictionary " + responder.dictionaryDecoder.request().dictionaryName() + " is not available");
            return;
        }
        if (!responder.writeDictionary(session, isField))
        {
            LOG.error("connection {}: dictionary encoding failed", session.connectionId);
            replies.reject(session, DomainTypes.DICTIONARY, streamId, RejectReason.UNKNOWN_DICTIONARY, StateCodes.ERROR,
                "Dictionary encoding failed");
        }
    }

    void tellDirectoryChanges(final ConsumerSession session, final UserRights before)
    {
        if (0 == session.directoryStreamId)
        {
            return;
        }
        changedServices.clear();
        directory.ensureLoaded(source);
        for (final Service service : directory.services())
        {
            final ServiceInfo info = directory.info(service.serviceId());
            final boolean was = before.mayUseService(info.name());
            final boolean is = session.rights.mayUseService(info.name());
            if (was != is && (session.directoryServiceId < 0 || session.directoryServiceId == info.serviceId()))
            {
                changedServices.add(is ? directory.added(info) : DirectoryView.deleted(info.serviceId()));
            }
        }
        if (!changedServices.isEmpty())
        {
            session.write(responder.directoryUpdate(
                session, session.directoryStreamId, session.directoryFilter, changedServices));
        }
        changedServices.clear();
    }

    private boolean isRead(final ByteBuf message)
    {
        return CodecReturnCodes.SUCCESS ==
            responder.reader.read(message, message.readerIndex(), message.readableBytes());
    }

    /**
     * A login the entitlements no longer allow: logged off now, not at the disconnect (nothing more reaches the user
     * while the reject lingers, and the disconnect finds no grant or login left to record), then refused with
     * Closed/NotEntitled and disconnected after the linger.
     */
    void withdrawLogin(final ConsumerSession session, final String denial)
    {
        counters.rejected(RejectReason.ENTITLEMENT_WITHDRAWN).increment();
        requests.logOff(session, "permission withdrawn: " + denial);
        session.write(responder.loginReject(session, session.loginStreamId, StateCodes.NOT_ENTITLED,
            "Permission withdrawn: " + denial));
        session.closeAfterLinger(DisconnectReason.LOGIN_REJECTED, "permission withdrawn: " + denial);
    }

    /**
     * A service of the source appeared or changed: its directory watchers are told (once the directory is loaded;
     * before, it is only loaded).
     *
     * @return true if watchers may have been written to.
     */
    boolean onServiceChanged(final ServiceInfo service)
    {
        if (!directory.isLoaded())
        {
            directory.ensureLoaded(source);
            return false;
        }
        final boolean isNew = directory.put(service);
        notifyDirectoryWatchers(isNew ? directory.added(service) : directory.stateChange(service), service);
        return true;
    }

    /**
     * A service of the source went: its directory watchers are told (once the directory is loaded).
     *
     * @return true if watchers may have been written to.
     */
    boolean onServiceRemoved(final int serviceId)
    {
        if (!directory.isLoaded())
        {
            directory.ensureLoaded(source);
            return false;
        }
        final ServiceInfo removed = directory.info(serviceId);
        directory.remove(serviceId);
        notifyDirectoryWatchers(DirectoryView.deleted(serviceId), removed);
        return true;
    }
}
