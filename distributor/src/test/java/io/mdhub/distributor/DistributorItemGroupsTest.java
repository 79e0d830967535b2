package io.mdhub.distributor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.FilterEntryActions;
import com.refinitiv.eta.codec.MapEntryActions;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.test.EtaTransportExtension;
import io.mdhub.common.test.InterruptAfter;
import io.mdhub.common.test.MdTests;
import io.mdhub.common.test.eta.EtaNiProvider;
import io.mdhub.distributor.RecordingDistributorListener.Event;

/**
 * Item groups in the distributor, against real ETA 3.9.1.0 non-interactive providers, seen at the listener: group ids
 * come from refreshes and from statuses carrying one; a group status from one provider reaches its own items only
 * (groups are per provider connection, even for one service published by two providers); a merge and a status of
 * the merged-to group in one directory message reach the merged items, each item exactly once.
 */
@ExtendWith(EtaTransportExtension.class)
@InterruptAfter(20)
class DistributorItemGroupsTest
{
    private static final int NIP_SERVICE_ID = 1;
    private static final String SERVICE_NAME = "NI_GROUPS";
    private static final byte[] GROUP_1 = {1, 0};
    private static final byte[] GROUP_2 = {2, 0};
    private static final byte[] GROUP_5 = {5, 0};

    private final RecordingDistributorListener listener = new RecordingDistributorListener();
    private final EtaFieldLists fields = new EtaFieldLists();
    private final List<EtaNiProvider> providers = new ArrayList<>();
    private Distributor distributor;

    @BeforeEach
    void launch()
    {
        distributor = Distributor.launch(new Distributor.Context()
            .providerPort(0)
            .componentName("groups-test")
            .listener(listener));
    }

    @AfterEach
    void tearDown()
    {
        providers.forEach(EtaNiProvider::close);
        distributor.close();
    }

    @Test
    void aGroupStatusReachesOnlyTheItemsOfTheProviderThatSentIt()
    {
        final EtaNiProvider first = provider("first");
        final EtaNiProvider second = provider("second");
        final int firstItem = publish(first, -2, "P1.N", GROUP_1);
        final int secondItem = publish(second, -2, "P2.N", GROUP_1);
        listener.events.clear();

        first.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.SUSPECT, "line 1 down", null);
        fence(first, -2);
        final List<Event> events = new ArrayList<>(listener.events);
        assertEquals("status,update", listener.types(), events::toString);
        assertStatus(events.get(0), firstItem, DataStates.SUSPECT, "line 1 down");
        assertEquals(DataStates.OK, dataState("P2.N"), "the other provider's group 1 is another group");
        assertEquals(DataStates.SUSPECT, dataState("P1.N"));

        listener.events.clear();
        second.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.SUSPECT, "line 2 down", null);
        fence(second, -2);
        assertEquals("status,update", listener.types());
        assertStatus(new ArrayList<>(listener.events).get(0), secondItem, DataStates.SUSPECT, "line 2 down");
    }

    @Test
    void aStatusWithAGroupIdMovesTheItemAndAMergeThenAStatusInOneMessageReachEachItemOnce()
    {
        final EtaNiProvider nip = provider("nip");
        final int a = publish(nip, -2, "A.N", GROUP_1);
        final int b = publish(nip, -3, "B.N", GROUP_1);
        final int c = publish(nip, -4, "C.N", GROUP_2);

        // C's provider moves it into group 1 with an item status
        nip.send(groupStatus(-4, GROUP_1)::encode);
        listener.awaitNext("status");
        assertArrayEquals(GROUP_1, groupOf("C.N"), "a status carrying a group id moves the item");

        // one message: group 1 merges into group 5, then group 5 goes Suspect
        listener.events.clear();
        nip.send(mergeThenStatus()::encode);
        fence(nip, -2);
        final List<Event> events = new ArrayList<>(listener.events);
        assertEquals("status,status,status,update", listener.types(), events::toString);
        final Set<Integer> handles = new TreeSet<>();
        for (int i = 0; i < 3; i++)
        {
            assertStatus(events.get(i), events.get(i).itemHandle(), DataStates.SUSPECT, "group 5 down");
            handles.add(events.get(i).itemHandle());
        }
        assertEquals(new TreeSet<>(List.of(a, b, c)), handles, "each item exactly once");
        for (final String name : List.of("A.N", "B.N", "C.N"))
        {
            assertArrayEquals(GROUP_5, groupOf(name), name);
        }

        // group 1 is empty now; a refresh puts an item back into a group of its own choosing
        listener.events.clear();
        nip.publishGroup(NIP_SERVICE_ID, GROUP_1, StreamStates.OPEN, DataStates.SUSPECT, "nobody", null);
        fence(nip, -2);
        assertEquals("update", listener.types());
        publish(nip, -3, "B.N", GROUP_2);
        assertArrayEquals(GROUP_2, groupOf("B.N"));
    }

    // ------------------------------------------------------------------ helpers

    private EtaNiProvider provider(final String user)
    {
        final EtaNiProvider provider = EtaNiProvider.connect(distributor.port());
        providers.add(provider);
        provider.login(user);
        provider.publishDirectory(NIP_SERVICE_ID, SERVICE_NAME);
        return provider;
    }

    private int publish(final EtaNiProvider provider, final int streamId, final String name, final byte[] group)
    {
        provider.refresh(streamId, DomainTypes.MARKET_PRICE, NIP_SERVICE_ID, name,
            RefreshMsgFlags.CLEAR_CACHE | RefreshMsgFlags.REFRESH_COMPLETE, DataTypes.FIELD_LIST,
            fields.begin(1, 0).real(22, 100, 12).end(), group);
        return listener.awaitNext("refresh").itemHandle();
    }

    /**
     * An update on the connection, awaited: everything the provider sent before it has been handled.
     */
    private void fence(final EtaNiProvider provider, final int streamId)
    {
        provider.update(streamId, fields.begin(0, 0).real(22, 101, 12).end());
        MdTests.await(() -> "the fence update, have " + listener.events,
            () -> listener.events.stream().anyMatch((e) -> "update".equals(e.type())));
    }

    private static void assertStatus(final Event event, final int handle, final int dataState, final String text)
    {
        assertEquals("status", event.type());
        assertEquals(handle, event.itemHandle());
        assertEquals(StreamStates.OPEN, event.a());
        assertEquals(dataState, event.b());
        final StatusMsg status = (StatusMsg)EtaNiProvider.decode(event.rwf());
        assertEquals(MsgClasses.STATUS, status.msgClass());
        assertEquals(dataState, status.state().dataState());
        assertEquals(text, status.state().text().toString());
    }

    private int dataState(final String name)
    {
        return distributor.onEventLoop((d) -> item(d, name).dataState());
    }

    private byte[] groupOf(final String name)
    {
        return distributor.onEventLoop((d) -> item(d, name).groupId());
    }

    private static CachedItem item(final ServiceDirectory directory, final String name)
    {
        final ItemCache cache = directory.service(SERVICE_NAME).cache();
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return cache.item(cache.handle(DomainTypes.MARKET_PRICE, new UnsafeBuffer(bytes), 0, bytes.length));
    }

    private static StatusMsg groupStatus(final int streamId, final byte[] group)
    {
        final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(DomainTypes.MARKET_PRICE);
        status.streamId(streamId);
        status.containerType(DataTypes.NO_DATA);
        status.flags(StatusMsgFlags.HAS_STATE | StatusMsgFlags.HAS_GROUP_ID);
        status.state().streamState(StreamStates.OPEN);
        status.state().dataState(DataStates.OK);
        status.state().code(StateCodes.NONE);
        status.groupId(buffer(group));
        return status;
    }

    private static DirectoryUpdate mergeThenStatus()
    {
        final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        update.streamId(EtaNiProvider.DIRECTORY_STREAM);
        update.applyHasFilter();
        update.filter(Directory.ServiceFilterFlags.GROUP);
        final Service service = DirectoryMsgFactory.createService();
        service.serviceId(NIP_SERVICE_ID);
        service.action(MapEntryActions.UPDATE);
        final Service.ServiceGroup merge = new Service.ServiceGroup();
        merge.action(FilterEntryActions.SET);
        merge.group(buffer(GROUP_1));
        merge.applyHasMergedToGroup();
        merge.mergedToGroup(buffer(GROUP_5));
        service.groupStateList().add(merge);
        final Service.ServiceGroup status = new Service.ServiceGroup();
        status.action(FilterEntryActions.SET);
        status.group(buffer(GROUP_5));
        status.applyHasStatus();
        status.status().streamState(StreamStates.OPEN);
        status.status().dataState(DataStates.SUSPECT);
        status.status().code(StateCodes.NONE);
        final Buffer text = CodecFactory.createBuffer();
        text.data("group 5 down");
        status.status().text(text);
        service.groupStateList().add(status);
        update.serviceList().add(service);
        return update;
    }

    private static Buffer buffer(final byte[] bytes)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(bytes));
        return buffer;
    }
}
