package io.mdhub.common.rwf.eta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataDictionary;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.Msg;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.rdm.Dictionary;
import com.refinitiv.eta.rdm.Directory;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.Login;
import com.refinitiv.eta.transport.TransportFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.dictionary.DictionaryRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.DirectoryUpdate;
import com.refinitiv.eta.valueadd.domainrep.rdm.directory.Service;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgFactory;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginMsgType;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRefresh;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginRequest;
import com.refinitiv.eta.valueadd.domainrep.rdm.login.LoginStatus;

import io.mdhub.common.dictionary.DictionaryLoader;
import io.mdhub.common.dictionary.DictionaryLoaderTest;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.InterruptAfter;

/**
 * Login, Source Directory and Dictionary helpers: each encoder's output decodes with plain ETA (Msg.decode + RDM
 * decode), and each decoder reads ETA-encoded and captured input.
 */
@InterruptAfter(10)
class AdminDomainCodecTest
{
    private final EtaMsgWriter writer = new EtaMsgWriter();
    private final EtaMsgReader reader = new EtaMsgReader();
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);

    private byte[] encoded()
    {
        final byte[] bytes = new byte[writer.encodedLength()];
        out.getBytes(0, bytes);
        return bytes;
    }

    private void read(final byte[] bytes)
    {
        assertEquals(CodecReturnCodes.SUCCESS, reader.read(new UnsafeBuffer(bytes), 0, bytes.length));
    }

    private static Buffer text(final String text)
    {
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(text);
        return buffer;
    }

    @Test
    void loginRequestFromTheDumpAndFromEta()
    {
        final LoginRequestDecoder decoder = new LoginRequestDecoder();
        read(RwfTestSupport.hex("00 59 01 01 00 00 00 01 04 00 80 4f 26 07 6c 61 62 75 73 65 72 01 05 80 42 08 00 03 0d"
            + "41 70 70 6c 69 63 61 74 69 6f 6e 49 64 11 03 32 35 36 0f 41 70 70 6c 69 63 61 74 69 6f 6e 4e 61"
            + "6d 65 11 03 65 74 61 08 50 6f 73 69 74 69 6f 6e 11 0c 31 32 37 2e 30 2e 30 2e 31 2f 76 6d"));
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertEquals("labuser", decoder.request().userName().toString());
        assertEquals("256", decoder.request().attrib().applicationId().toString());
        assertEquals("eta", decoder.request().attrib().applicationName().toString());
        assertEquals("127.0.0.1/vm", decoder.request().attrib().position().toString());
        assertFalse(decoder.isProvider());
        assertTrue(decoder.singleOpen());

        final LoginRequest nip = (LoginRequest)LoginMsgFactory.createMsg();
        nip.rdmMsgType(LoginMsgType.REQUEST);
        nip.initDefaultRequest(1);
        nip.userName(text("nipuser"));
        nip.applyHasRole();
        nip.role(Login.RoleTypes.PROV);
        assertEquals(CodecReturnCodes.SUCCESS, nip.encode(writer.begin(out, 0, out.capacity())));
        read(encoded());
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertTrue(decoder.isProvider());
        assertEquals("nipuser", decoder.request().userName().toString());
    }

    @Test
    void loginAcceptRejectAndCloseDecodeWithEta()
    {
        final LoginRequestDecoder decoder = new LoginRequestDecoder();
        final LoginRequest request = (LoginRequest)LoginMsgFactory.createMsg();
        request.rdmMsgType(LoginMsgType.REQUEST);
        request.initDefaultRequest(3);
        request.userName(text("alice"));
        assertEquals(CodecReturnCodes.SUCCESS, request.encode(writer.begin(out, 0, out.capacity())));
        final byte[] requestBytes = encoded();
        read(requestBytes);
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));

        final LoginResponseEncoder encoder = new LoginResponseEncoder("MDHub", 7, 1, 1, 0);
        final UnsafeBuffer responseBuffer = new UnsafeBuffer(new byte[1024]);
        final EtaMsgWriter responseWriter = new EtaMsgWriter();
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeAccept(responseWriter.begin(responseBuffer, 0, 1024),
            decoder.request(), true, true, text("Login accepted by MDHub")));
        final byte[] refreshBytes = new byte[responseWriter.encodedLength()];
        responseBuffer.getBytes(0, refreshBytes);

        final Msg msg = RwfTestSupport.decode(refreshBytes);
        final LoginRefresh refresh = (LoginRefresh)LoginMsgFactory.createMsg();
        refresh.rdmMsgType(LoginMsgType.REFRESH);
        final DecodeIterator it = RwfTestSupport.decodeIterator(refreshBytes);
        final Msg again = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, again.decode(it));
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, again));
        assertEquals(3, msg.streamId());
        assertEquals(DomainTypes.LOGIN, msg.domainType());
        assertTrue(0 != (msg.flags() & RefreshMsgFlags.SOLICITED));
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        assertEquals(DataStates.OK, refresh.state().dataState());
        assertEquals("alice", refresh.userName().toString());
        assertEquals(1, refresh.features().supportBatchRequests());
        assertEquals(1, refresh.features().supportBatchReissues());
        assertEquals(1, refresh.features().supportBatchCloses());
        assertEquals(1, refresh.features().supportViewRequests());
        assertEquals(1, refresh.features().supportOMMPost());
        assertEquals(1, refresh.attrib().singleOpen());
        assertEquals(1, refresh.attrib().allowSuspectData());
        assertEquals("MDHub", refresh.attrib().applicationName().toString());

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeReject(writer.begin(out, 0, out.capacity()), 3,
            StateCodes.NOT_ENTITLED, text("no")));
        final LoginStatus status = decodeLoginStatus(encoded());
        assertEquals(StreamStates.CLOSED, status.state().streamState());
        assertEquals(DataStates.SUSPECT, status.state().dataState());
        assertEquals(StateCodes.NOT_ENTITLED, status.state().code());

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeClose(writer.begin(out, 0, out.capacity()), 3,
            text("bye")));
        assertEquals(StreamStates.CLOSED, decodeLoginStatus(encoded()).state().streamState());
    }

    private static LoginStatus decodeLoginStatus(final byte[] bytes)
    {
        final DecodeIterator it = RwfTestSupport.decodeIterator(bytes);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final LoginStatus status = (LoginStatus)LoginMsgFactory.createMsg();
        status.rdmMsgType(LoginMsgType.STATUS);
        assertEquals(CodecReturnCodes.SUCCESS, status.decode(it, msg));
        return status;
    }

    @Test
    void directoryRequestFromTheDump()
    {
        final DirectoryRequestDecoder decoder = new DirectoryRequestDecoder();
        read(RwfTestSupport.hex("00 0f 01 04 00 00 00 02 04 00 80 05 08 00 00 00 07"));
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertEquals(7, decoder.filter());
        assertTrue(decoder.streaming());
        assertEquals(-1, decoder.serviceId());
        assertNull(decoder.serviceName());
        assertEquals(2, decoder.request().streamId());
    }

    private static Service service(final int id, final String name, final boolean up)
    {
        return DirectoryServices.service(id, name, "MDHub", new int[] {DomainTypes.MARKET_PRICE}, up, true,
            com.refinitiv.eta.codec.MapEntryActions.ADD);
    }

    @Test
    void aServedServiceAnnouncesItsDomainsDictionariesQosAndState()
    {
        final Service announced = DirectoryServices.service(7, "FEED", "Vendor", new int[] {
            DomainTypes.MARKET_PRICE, DomainTypes.DICTIONARY, DomainTypes.MARKET_BY_ORDER}, true, false,
            com.refinitiv.eta.codec.MapEntryActions.ADD);
        assertEquals(CodecReturnCodes.SUCCESS, new DirectoryEncoder(1).encodeRefresh(writer.begin(out, 0,
            out.capacity()), 2, Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE, -1, true,
            List.of(announced), text("ok")));

        final Service service = decodeDirectoryRefresh(encoded()).serviceList().get(0);
        assertEquals(7, service.serviceId());
        assertEquals("FEED", service.info().serviceName().toString());
        assertEquals("Vendor", service.info().vendor().toString());
        assertEquals(List.of((long)DomainTypes.DICTIONARY, (long)DomainTypes.MARKET_PRICE,
            (long)DomainTypes.MARKET_BY_ORDER), service.info().capabilitiesList(), "the dictionary first, once");
        assertEquals(List.of("RWFFld", "RWFEnum"), service.info().dictionariesProvidedList());
        assertEquals(List.of("RWFFld", "RWFEnum"), service.info().dictionariesUsedList());
        assertEquals(1, service.info().qosList().size());
        assertEquals(QosTimeliness.REALTIME, service.info().qosList().get(0).timeliness());
        assertEquals(QosRates.TICK_BY_TICK, service.info().qosList().get(0).rate());
        assertEquals(1, service.state().serviceState());
        assertEquals(0, service.state().acceptingRequests());
    }

    @Test
    void directoryRefreshHonoursFilterAndServiceAndDecodesWithEta()
    {
        final DirectoryEncoder encoder = new DirectoryEncoder(4);
        final List<Service> services = List.of(service(1, "DIRECT_FEED", true), service(300, "OTHER", false));

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeRefresh(writer.begin(out, 0, out.capacity()), 2,
            Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE, -1, true, services, text("ok")));
        DirectoryRefresh refresh = decodeDirectoryRefresh(encoded());
        assertEquals(2, refresh.serviceList().size());
        final Service first = refresh.serviceList().get(0);
        assertEquals(1, first.serviceId());
        assertEquals("DIRECT_FEED", first.info().serviceName().toString());
        assertEquals(List.of(5L, 6L), first.info().capabilitiesList());
        assertEquals(List.of("RWFFld", "RWFEnum"), first.info().dictionariesProvidedList());
        assertEquals(1, first.state().serviceState());
        assertEquals(0, refresh.serviceList().get(1).state().serviceState());

        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeRefresh(writer.begin(out, 0, out.capacity()), 2,
            Directory.ServiceFilterFlags.STATE, 300, true, services, text("ok")));
        refresh = decodeDirectoryRefresh(encoded());
        assertEquals(1, refresh.serviceList().size());
        assertEquals(300, refresh.serviceList().get(0).serviceId());
        assertEquals(0, refresh.serviceList().get(0).flags() & Service.ServiceFlags.HAS_INFO, "INFO filtered out");
        assertTrue(0 != (refresh.serviceList().get(0).flags() & Service.ServiceFlags.HAS_STATE));
        assertEquals(Service.ServiceFlags.HAS_INFO | Service.ServiceFlags.HAS_STATE, services.get(1).flags(),
            "the caller's service is restored");

        final Service down = service(1, "DIRECT_FEED", false);
        down.action(com.refinitiv.eta.codec.MapEntryActions.UPDATE);
        down.flags(Service.ServiceFlags.HAS_STATE);
        assertEquals(CodecReturnCodes.SUCCESS, encoder.encodeUpdate(writer.begin(out, 0, out.capacity()), 2,
            Directory.ServiceFilterFlags.INFO | Directory.ServiceFilterFlags.STATE, List.of(down)));
        final byte[] bytes = encoded();
        final DecodeIterator it = RwfTestSupport.decodeIterator(bytes);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final DirectoryUpdate update = (DirectoryUpdate)DirectoryMsgFactory.createMsg();
        update.rdmMsgType(DirectoryMsgType.UPDATE);
        assertEquals(CodecReturnCodes.SUCCESS, update.decode(it, msg));
        assertEquals(0, update.serviceList().get(0).state().serviceState());
    }

    private static DirectoryRefresh decodeDirectoryRefresh(final byte[] bytes)
    {
        final DecodeIterator it = RwfTestSupport.decodeIterator(bytes);
        final Msg msg = CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
        final DirectoryRefresh refresh = (DirectoryRefresh)DirectoryMsgFactory.createMsg();
        refresh.rdmMsgType(DirectoryMsgType.REFRESH);
        assertEquals(CodecReturnCodes.SUCCESS, refresh.decode(it, msg));
        assertEquals(StreamStates.OPEN, refresh.state().streamState());
        return refresh;
    }

    @Test
    void nipDirectoryRefreshFromTheDump()
    {
        final byte[] nip = RwfTestSupport.hex(
            "00 16 02 04 ff ff ff ff 81 48 09 09 00 00 02 00 00 80 05 08 00 00 00 03 00 04 07 00 01"
            + "02 01 01 fe 01 40 00 05 02 02 01 fe 01 0b 08 00 0b 04 4e 61 6d 65 11 06 4e 49 5f 50 55 42 06 56"
            + "65 6e 64 6f 72 11 03 4c 61 62 08 49 73 53 6f 75 72 63 65 04 01 01 0c 43 61 70 61 62 69 6c 69 74"
            + "69 65 73 0f fe 00 0a 04 00 00 03 01 05 01 06 01 07 14 44 69 63 74 69 6f 6e 61 72 69 65 73 50 72"
            + "6f 76 69 64 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57 46 45 6e 75 6d 10 44 69"
            + "63 74 69 6f 6e 61 72 69 65 73 55 73 65 64 0f fe 00 13 11 00 00 02 06 52 57 46 46 6c 64 07 52 57"
            + "46 45 6e 75 6d 03 51 6f 53 0f fe 00 06 0c 00 00 01 01 22 10 53 75 70 70 6f 72 74 73 51 6f 53 52"
            + "61 6e 67 65 04 01 00 08 49 74 65 6d 4c 69 73 74 11 0e 5f 45 54 41 5f 49 54 45 4d 5f 4c 49 53 54"
            + "1a 53 75 70 70 6f 72 74 73 4f 75 74 4f 66 42 61 6e 64 53 6e 61 70 73 68 6f 74 73 04 01 00 17 41"
            + "63 63 65 70 74 69 6e 67 43 6f 6e 73 75 6d 65 72 53 74 61 74 75 73 04 01 00 02 02 fe 00 28 08 00"
            + "02 0c 53 65 72 76 69 63 65 53 74 61 74 65 04 01 01 11 41 63 63 65 70 74 69 6e 67 52 65 71 75 65"
            + "73 74 73 04 01 01");
        final DirectoryRefreshDecoder decoder = new DirectoryRefreshDecoder();
        read(nip);
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertEquals(-1, decoder.refresh().streamId());
        assertEquals(1, decoder.services().size());
        final Service service = decoder.services().get(0);
        assertEquals(1, service.serviceId());
        assertEquals("NI_PUB", service.info().serviceName().toString());
        assertEquals(List.of(5L, 6L, 7L), service.info().capabilitiesList());
        assertEquals(1, service.state().serviceState());
        assertEquals(1, service.state().acceptingRequests());
    }

    @Test
    void dictionaryRequestFromTheDumpAndFromEta()
    {
        final DictionaryRequestDecoder decoder = new DictionaryRequestDecoder();
        read(RwfTestSupport.hex("00 17 01 05 00 00 00 03 00 00 80 0d 0b 01 06 52 57 46 46 6c 64 00 00 00 07"));
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertTrue(decoder.isFieldDictionary());
        assertFalse(decoder.isEnumTypeDictionary());
        assertEquals(1, decoder.request().serviceId());
        assertEquals(Dictionary.VerbosityValues.NORMAL, decoder.request().verbosity());
        assertFalse(decoder.streaming());

        final DictionaryRequest request = (DictionaryRequest)DictionaryMsgFactory.createMsg();
        request.rdmMsgType(DictionaryMsgType.REQUEST);
        request.streamId(4);
        request.dictionaryName(text("RWFEnum"));
        request.serviceId(300);
        request.verbosity(Dictionary.VerbosityValues.VERBOSE);
        assertEquals(CodecReturnCodes.SUCCESS, request.encode(writer.begin(out, 0, out.capacity())));
        read(encoded());
        assertEquals(CodecReturnCodes.SUCCESS, decoder.decode(reader));
        assertTrue(decoder.isEnumTypeDictionary());
        assertEquals(300, decoder.request().serviceId());
    }

    @Test
    void dictionaryRefreshesDecodeBackToTheSameEntries()
    {
        final DataDictionary source = DictionaryLoader.loadBundled();
        final DataDictionary received = CodecFactory.createDataDictionary();
        final DictionaryRefreshEncoder encoder = new DictionaryRefreshEncoder();
        final com.refinitiv.eta.transport.Error error = TransportFactory.createError();

        encoder.begin(source, 3, 1, Dictionary.VerbosityValues.NORMAL, true, false);
        final List<byte[]> fieldParts = encodeAllParts(encoder, 400);
        assertTrue(fieldParts.size() > 1, "small buffers give a multi-part refresh: " + fieldParts.size());
        for (int i = 0; i < fieldParts.size(); i++)
        {
            final DecodeIterator it = RwfTestSupport.decodeIterator(fieldParts.get(i));
            final Msg msg = CodecFactory.createMsg();
            assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
            assertPartFlags((RefreshMsg)msg, i, fieldParts.size(), "RWFFld");
            assertEquals(CodecReturnCodes.SUCCESS,
                received.decodeFieldDictionary(it, Dictionary.VerbosityValues.NORMAL, error), error.text());
        }

        encoder.begin(source, 4, 1, Dictionary.VerbosityValues.NORMAL, false, false);
        final List<byte[]> enumParts = encodeAllParts(encoder, 4096);
        for (int i = 0; i < enumParts.size(); i++)
        {
            final DecodeIterator it = RwfTestSupport.decodeIterator(enumParts.get(i));
            final Msg msg = CodecFactory.createMsg();
            assertEquals(CodecReturnCodes.SUCCESS, msg.decode(it));
            assertPartFlags((RefreshMsg)msg, i, enumParts.size(), "RWFEnum");
            assertEquals(CodecReturnCodes.SUCCESS,
                received.decodeEnumTypeDictionary(it, Dictionary.VerbosityValues.NORMAL, error), error.text());
        }
        DictionaryLoaderTest.assertMdHubEntries(received);
        DictionaryLoaderTest.assertMdHubEnums(received);
    }

    private static void assertPartFlags(final RefreshMsg msg, final int part, final int parts, final String name)
    {
        assertEquals(DomainTypes.DICTIONARY, msg.domainType());
        assertEquals(name, msg.msgKey().name().toString());
        assertEquals(StreamStates.NON_STREAMING, msg.state().streamState());
        assertEquals(part == 0, 0 != (msg.flags() & RefreshMsgFlags.CLEAR_CACHE), "clear cache on part " + part);
        assertEquals(part == parts - 1, 0 != (msg.flags() & RefreshMsgFlags.REFRESH_COMPLETE), "complete " + part);
    }

    private List<byte[]> encodeAllParts(final DictionaryRefreshEncoder encoder, final int partSize)
    {
        final List<byte[]> parts = new ArrayList<>();
        int result;
        do
        {
            result = encoder.encodeNextPart(writer.begin(out, 0, partSize));
            assertTrue(result >= CodecReturnCodes.SUCCESS, "part " + parts.size() + ": " + result);
            parts.add(encoded());
            assertTrue(parts.size() < 100);
        }
        while (CodecReturnCodes.DICT_PART_ENCODED == result);
        return parts;
    }
}
