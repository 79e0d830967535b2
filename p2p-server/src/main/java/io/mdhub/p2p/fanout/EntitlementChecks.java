package io.mdhub.p2p.fanout;

import java.util.ArrayList;
import java.util.List;

import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import org.agrona.AsciiSequenceView;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.mdhub.common.entitlement.EntitlementTable;
import io.mdhub.common.entitlement.PermissionLock;
import io.mdhub.common.entitlement.UserRights;
import io.mdhub.common.log.LogSummary;
import io.mdhub.p2p.RejectReason;
import io.mdhub.p2p.entitlement.ConsumerEntitlements;
import io.mdhub.p2p.entitlement.UsageEvent;
import io.mdhub.p2p.entitlement.UsageLog;
import io.mdhub.p2p.entitlement.UsageRecord;
import io.mdhub.p2p.source.ServiceInfo;

/**
 * One fan-out worker's side of the entitlements: checks a consumer's login (throttle, token, user, application,
 * position), the services it may see and the items it may watch (the item's lock from its provider's PermData, else
 * the lock the entitlement file gives its name), and writes the usage record of every grant, denial, open and close.
 * Worker thread only; the table it reads is immutable and shared.
 */
final class EntitlementChecks
{
    private static final Logger LOG = LoggerFactory.getLogger(EntitlementChecks.class);

    private final ConsumerEntitlements shared;
    private final UsageRecord record = new UsageRecord();
    private final AsciiSequenceView nameView = new AsciiSequenceView();
    private final AsciiSequenceView lockNameView = new AsciiSequenceView();
    private final UnsafeBuffer keyName = new UnsafeBuffer(new byte[0]);
    /** Why the last login {@link #login} refused was refused (its counter). */
    private RejectReason loginRejectReason;
    private final LogSummary deniedLogins;
    private final ArrayList<Service> visible = new ArrayList<>();

    EntitlementChecks(final ConsumerEntitlements shared, final String component)
    {
        this.shared = shared;
        this.deniedLogins = new LogSummary(LOG, component, "refused logins", 1);
    }

    /**
     * Checks a login and, when granted, gives the session its user, rights, application and position.
     *
     * @return null if granted, else why not (the text of the login's Closed/NotEntitled status; the counter to
     * count it under is {@link #loginRejectReason()}).
     */
    String login(final ConsumerSession session, final LoginRequest request, final long nowNs)
    {
        final String address = session.remoteHost();
        final String application = request.checkHasAttrib() && request.attrib().checkHasApplicationId() ?
            request.attrib().applicationId().toString() : "";
        final String position = request.checkHasAttrib() && request.attrib().checkHasPosition() ?
            request.attrib().position().toString() : "";
        final String given = request.userName().toString();
        session.application = application;
        session.position = position;
        session.loginToken = null;
        final EntitlementTable table = shared.table();
        if (table.isOpen())
        {
            grantLogin(session, given, UserRights.ALL);
            return null;
        }
        if (shared.throttle().isBlocked(address, nowNs))
        {
            final String denial = "too many failed logins from " + address + "; try again later";
            recordLogin(UsageEvent.LOGIN_DENIED, session, given, denial);
            loginRejectReason = RejectReason.LOGIN_THROTTLED;
            return denial;
        }
        final int nameType = request.checkHasUserNameType() ? request.userNameType() : Login.UserIdTypes.NAME;
        final boolean isToken = Login.UserIdTypes.TOKEN == nameType || Login.UserIdTypes.AUTHN_TOKEN == nameType;
        final String user = isToken ? shared.tokens().userFor(table, given, application) : given;
        final UserRights rights = null == user ? null : table.user(user);
        final String denial = null == user ? "invalid token" : null == rights ? "unknown user " + user :
            rights.loginDenial(application, position);
        if (null != denial)
        {
            shared.throttle().onFailure(address, nowNs);
            final String who = isToken ? (null == user ? "(token)" : user) : given;
            if (deniedLogins.admit(0, "login-denied", true, who + " from " + address + ": " + denial))
            {
                LOG.warn("consumer connection {} ({}): login of {} refused: {}", session.connectionId, address, who,
                    denial);
            }
            recordLogin(UsageEvent.LOGIN_DENIED, session, who, denial);
            loginRejectReason = RejectReason.LOGIN_DENIED;
            return denial;
        }
        session.loginToken = isToken ? given : null;
        grantLogin(session, user, rights);
        return null;
    }

    /**
     * @return the counter of the last login refused.
     */
    RejectReason loginRejectReason()
    {
        return loginRejectReason;
    }

    private void grantLogin(final ConsumerSession session, final String user, final UserRights rights)
    {
        session.userName = user;
        session.rights = rights;
        recordLogin(UsageEvent.LOGIN_GRANTED, session, user, null);
    }

    /**
     * Looks the session's user up again in a changed table (and its token, for a login by token).
     *
     * @return null if the user may stay logged in, else why not.
     */
    String recheckLogin(final ConsumerSession session)
    {
        final EntitlementTable table = shared.table();
        if (null != session.loginToken && !table.isOpen() &&
            !session.userName.equals(shared.tokens().userFor(table, session.loginToken, session.application)))
        {
            return "the token of user " + session.userName + " is no longer valid";
        }
        final UserRights rights = table.user(session.userName);
        final String denial = null == rights ? "user " + session.userName + " is no longer entitled" :
            rights.loginDenial(session.application, session.position);
        if (null == denial)
        {
            session.rights = rights;
        }
        return denial;
    }

    /**
     * @return true if the session's user may see the service.
     */
    boolean mayUseService(final ConsumerSession session, final ServiceInfo service)
    {
        return null != service && session.rights.mayUseService(service.name());
    }

    /**
     * @param session  whose directory it is.
     * @param all      the worker's directory.
     * @param infoById names the services.
     * @return the services of the directory the user may see (a list reused by the next call).
     */
    List<Service> visibleServices(final ConsumerSession session, final List<Service> all, final DirectoryView infoById)
    {
        if (session.rights == UserRights.ALL)
        {
            return all;
        }
        visible.clear();
        for (int i = 0, size = all.size(); i < size; i++)
        {
            final Service service = all.get(i);
            if (mayUseService(session, infoById.info(service.serviceId())))
            {
                visible.add(service);
            }
        }
        return visible;
    }

    /**
     * @return null if the watch's user may see its item as the item's lock stands, else the reason.
     */
    String itemDenial(final ItemWatch watch, final ServiceInfo service)
    {
        final ConsumerSession session = watch.session;
        if (session.rights == UserRights.ALL)
        {
            return null;
        }
        final String serviceName = null == service ? "service id " + watch.serviceId : service.name();
        return session.rights.itemDenial(serviceName, itemName(watch.name, 0, watch.name.capacity()),
            lockOf(watch.item, serviceName));
    }

    /**
     * @return null if the user may post to the item, else the reason.
     */
    String postDenial(
        final ConsumerSession session, final ServiceInfo service, final WatchedItem item, final DirectBuffer name,
        final int nameOffset, final int nameLength)
    {
        if (session.rights == UserRights.ALL)
        {
            return null;
        }
        if (null == service || !session.rights.mayPost(service.name()))
        {
            return "user " + session.userName + " may not post to " + (null == service ? "this service" :
                service.name());
        }
        final CharSequence itemName = itemName(name, nameOffset, nameLength);
        return session.rights.itemDenial(service.name(), itemName,
            null != item && null != item.lock ? item.lock : shared.table().mappedLock(service.name(), itemName));
    }

    private PermissionLock lockOf(final WatchedItem item, final String serviceName)
    {
        if (null != item.lock)
        {
            return item.lock;
        }
        keyName.wrap(item.key.nameBytes(), 0, item.key.nameLength());
        return shared.table().mappedLock(serviceName, lockNameView.wrap(keyName, 0, item.key.nameLength()));
    }

    private CharSequence itemName(final DirectBuffer buffer, final int offset, final int length)
    {
        return nameView.wrap(buffer, offset, length);
    }

    private static boolean isSameLock(
        final byte[] permData, final DirectBuffer buffer, final int offset, final int length)
    {
        if (null == permData || permData.length != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (permData[i] != buffer.getByte(offset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads the lock a refresh or status carries into the item.
     *
     * @return true if the item's lock changed.
     */
    static boolean takeLock(final WatchedItem item, final DirectBuffer buffer, final int permOffset, final int length)
    {
        if (permOffset < 0 || isSameLock(item.permData, buffer, permOffset, length))
        {
            return false; // most refreshes and statuses repeat the lock: read again only when it differs
        }
        item.permData = new byte[length];
        buffer.getBytes(permOffset, item.permData);
        PermissionLock lock = PermissionLock.parse(buffer, permOffset, length);
        if (null == lock)
        {
            // a lock MDHub cannot read (a binary DACS lock): nobody but a user holding every code may see the item
            lock = PermissionLock.UNREADABLE;
        }
        final boolean changed = !lock.equals(item.lock);
        item.lock = lock;
        return changed;
    }

    // ---------------------------------------------------------------- usage records

    void granted(final ItemWatch watch, final ServiceInfo service, final long nowMs)
    {
        watch.grantedMs = nowMs;
        itemRecord(UsageEvent.ITEM_GRANTED, watch, service, nowMs, null, 0);
    }

    void denied(final ItemWatch watch, final ServiceInfo service, final String reason)
    {
        itemRecord(UsageEvent.ITEM_DENIED, watch, service, System.currentTimeMillis(), reason, 0);
    }

    void denied(
        final ConsumerSession session, final int domainType, final String service, final DirectBuffer name,
        final int nameOffset, final int nameLength, final UsageEvent event, final String reason)
    {
        if (isNotRecording())
        {
            return;
        }
        final UsageRecord r = begin(event, session, System.currentTimeMillis());
        r.service = service;
        r.item = name.getStringWithoutLengthAscii(nameOffset, nameLength);
        r.domainType = domainType;
        r.reason = reason;
        shared.usage().append(r);
    }

    /**
     * Records the end of a granted stream (nothing for one that was never granted).
     */
    void closed(final ItemWatch watch, final ServiceInfo service, final String reason)
    {
        if (0 != watch.grantedMs)
        {
            final long openedMs = watch.grantedMs;
            watch.grantedMs = 0;
            itemRecord(UsageEvent.ITEM_CLOSED, watch, service, System.currentTimeMillis(), reason, openedMs);
        }
    }

    void logoff(final ConsumerSession session, final String reason)
    {
        if (session.isLoggedIn && !isNotRecording())
        {
            final UsageRecord r = begin(UsageEvent.LOGOFF, session, System.currentTimeMillis());
            r.reason = reason;
            shared.usage().append(r);
        }
    }

    private void itemRecord(
        final UsageEvent event, final ItemWatch watch, final ServiceInfo service, final long nowMs,
        final String reason, final long openedMs)
    {
        if (isNotRecording())
        {
            return;
        }
        final UsageRecord r = begin(event, watch.session, nowMs);
        r.service = null == service ? "service id " + watch.serviceId : service.name();
        r.item = watch.name.getStringWithoutLengthAscii(0, watch.name.capacity());
        r.domainType = watch.item.key.domainType();
        final PermissionLock lock = lockOf(watch.item, r.service);
        r.codes = null == lock ? null : lock.toString();
        r.reason = reason;
        r.openedMs = openedMs;
        shared.usage().append(r);
    }

    private void recordLogin(
        final UsageEvent event, final ConsumerSession session, final String user, final String reason)
    {
        if (isNotRecording())
        {
            return;
        }
        final UsageRecord r = begin(event, session, System.currentTimeMillis());
        r.user = user;
        r.reason = reason;
        shared.usage().append(r);
    }

    /**
     * @return true when usage goes nowhere: no record is built (an item name is a String in a record).
     */
    private boolean isNotRecording()
    {
        return UsageLog.NONE == shared.usage();
    }

    private UsageRecord begin(final UsageEvent event, final ConsumerSession session, final long nowMs)
    {
        final UsageRecord r = record.reset();
        r.event = event;
        r.timeMs = nowMs;
        r.connectionId = session.connectionId;
        r.user = session.userName;
        r.position = session.position;
        r.application = session.application;
        return r;
    }
}
