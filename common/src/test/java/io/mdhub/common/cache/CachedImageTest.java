package io.mdhub.common.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.DataStates;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.MsgKeyFlags;
import com.refinitiv.eta.codec.QosRates;
import com.refinitiv.eta.codec.QosTimeliness;
import com.refinitiv.eta.codec.RefreshMsg;
import com.refinitiv.eta.codec.RefreshMsgFlags;
import com.refinitiv.eta.codec.StateCodes;
import com.refinitiv.eta.codec.StatusMsg;
import com.refinitiv.eta.codec.StatusMsgFlags;
import com.refinitiv.eta.codec.StreamStates;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.rdm.DomainTypes;
import com.refinitiv.eta.rdm.InstrumentNameTypes;

import io.mdhub.common.rwf.RwfMsgFlyweight;
import io.mdhub.common.rwf.RwfTestSupport;
import io.mdhub.common.test.InterruptAfter;

/**
 * A cached image fed with ETA-encoded messages, written back out by {@link ImageRefreshEncoder} and read by ETA:
 * the refresh carries the provider's state, QoS, name type and exactly the fields of the image (refresh plus
 * updates); an image that is Suspect, cleared, incomplete or not a FieldList is not servable.
 */
@InterruptAfter(30)
class CachedImageTest
{
    private static final int SERVICE_ID = 7;
    private static final String NAME = "VOD.L";

    private final EtaFieldLists fields = new EtaFieldLists();
    private final RwfMsgFlyweight msg = new RwfMsgFlyweight();
    private final ImageScratch fieldList = new ImageScratch();
    private final CachedImage image = new CachedImage(DomainTypes.MARKET_PRICE);
    private final ImageRefreshEncoder encoder = new ImageRefreshEncoder();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(1024);

    private RwfMsgFlyweight wrap(final byte[] bytes)
    {
        assertTrue(msg.wrap(new UnsafeBuffer(bytes), 0, bytes.length), () -> msg.errorReason());
        return msg;
    }

    private static byte[] refresh(final int flags, final byte[] body, final boolean withQos)
    {
        final RefreshMsg refresh = (RefreshMsg)CodecFactory.createMsg();
        refresh.msgClass(MsgClasses.REFRESH);
        refresh.domainType(DomainTypes.MARKET_PRICE);
        refresh.streamId(-5);
        refresh.containerType(DataTypes.FIELD_LIST);
        refresh.flags(flags | RefreshMsgFlags.HAS_MSG_KEY | (withQos ? RefreshMsgFlags.HAS_QOS : 0) |
            RefreshMsgFlags.HAS_PERM_DATA);
        refresh.permData(RwfTestSupport.etaBuffer(new byte[] {0x03, 0x01, 0x2C, 0x56}));
        if (withQos)
        {
            refresh.qos().timeliness(QosTimeliness.DELAYED);
            refresh.qos().timeInfo(900);
            refresh.qos().rate(QosRates.TIME_CONFLATED);
            refresh.qos().rateInfo(1500);
            refresh.qos().dynamic(true);
        }
        refresh.state().streamState(StreamStates.OPEN);
        refresh.state().dataState(DataStates.OK);
        refresh.state().code(StateCodes.NONE);
        refresh.state().text(RwfTestSupport.etaBuffer("All is well"));
        refresh.msgKey().flags(MsgKeyFlags.HAS_SERVICE_ID | MsgKeyFlags.HAS_NAME | MsgKeyFlags.HAS_NAME_TYPE);
        refresh.msgKey().serviceId(99);
        refresh.msgKey().name(RwfTestSupport.etaBuffer(NAME));
        refresh.msgKey().nameType(InstrumentNameTypes.RIC);
        refresh.encodedDataBody(RwfTestSupport.etaBuffer(body));
        return RwfTestSupport.encode(refresh);
    }

    private static byte[] update(final byte[] body)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(-5);
        update.containerType(DataTypes.FIELD_LIST);
        update.encodedDataBody(RwfTestSupport.etaBuffer(body));
        return RwfTestSupport.encode(update);
    }

    private static byte[] status(final int dataState, final boolean clearCache)
    {
        final StatusMsg status = (StatusMsg)CodecFactory.createMsg();
        status.msgClass(MsgClasses.STATUS);
        status.domainType(DomainTypes.MARKET_PRICE);
        status.streamId(-5);
        status.containerType(DataTypes.NO_DATA);
        status.flags(StatusMsgFlags.HAS_STATE | (clearCache ? StatusMsgFlags.CLEAR_CACHE : 0));
        status.state().streamState(StreamStates.OPEN);
        status.state().dataState(dataState);
        status.state().code(StateCodes.NONE);
        return RwfTestSupport.encode(status);
    }

    private RefreshMsg encodeAndDecode(final int streamId, final boolean solicited)
    {
        final ByteBuffer name = ByteBuffer.wrap(NAME.getBytes(StandardCharsets.US_ASCII));
        final int length = encoder.encode(image, streamId, SERVICE_ID, name, NAME.length(), solicited, out, 0,
            out.capacity());
        assertTrue(length > 0, () -> "encode result " + length);
        final byte[] bytes = new byte[length];
        out.getBytes(0, bytes);
        return (RefreshMsg)RwfTestSupport.decode(bytes);
    }

    @Test
    void refreshAndUpdatesComeBackAsOneCompleteRefreshWithTheProvidersHeader()
    {
        final byte[] refreshBody = fields.begin(1, 0).uint(1, 64).ascii(3, "VODAFONE GRP").real(22, 12344, 12)
            .real(25, 12346, 12).blank(11).end();
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE |
            RefreshMsgFlags.CLEAR_CACHE, refreshBody, true)), fieldList));
        final byte[] updateBody = fields.begin(0, 0).real(22, 12350, 12).real(6, 12349, 12).end();
        assertTrue(image.applyUpdate(wrap(update(updateBody)), fieldList));
        assertTrue(image.isServable());

        final RefreshMsg decoded = encodeAndDecode(42, true);
        assertEquals(42, decoded.streamId());
        assertEquals(DomainTypes.MARKET_PRICE, decoded.domainType());
        assertTrue(decoded.checkSolicited());
        assertTrue(decoded.checkRefreshComplete());
        assertTrue(decoded.checkClearCache());
        assertEquals(StreamStates.OPEN, decoded.state().streamState());
        assertEquals(DataStates.OK, decoded.state().dataState());
        assertTrue(decoded.checkHasQos());
        assertEquals(QosTimeliness.DELAYED, decoded.qos().timeliness());
        assertEquals(900, decoded.qos().timeInfo());
        assertEquals(QosRates.TIME_CONFLATED, decoded.qos().rate());
        assertEquals(1500, decoded.qos().rateInfo());
        assertTrue(decoded.qos().isDynamic());
        assertEquals(SERVICE_ID, decoded.msgKey().serviceId(), "the key names the service the refresh is for");
        assertEquals(NAME, decoded.msgKey().name().toString());
        assertEquals(InstrumentNameTypes.RIC, decoded.msgKey().nameType());

        final Map<Integer, byte[]> expected = new LinkedHashMap<>(EtaFieldLists.decode(refreshBody));
        expected.putAll(EtaFieldLists.decode(updateBody));
        final Map<Integer, byte[]> actual = EtaFieldLists.decode(RwfTestSupport.bytes(decoded.encodedDataBody()));
        assertEquals(expected.keySet(), actual.keySet());
        for (final Map.Entry<Integer, byte[]> entry : expected.entrySet())
        {
            assertArrayEquals(entry.getValue(), actual.get(entry.getKey()), "fid " + entry.getKey());
        }

        assertFalse(encodeAndDecode(43, false).checkSolicited());
    }

    @Test
    void multiPartRefreshIsServableOnlyWhenComplete()
    {
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.CLEAR_CACHE,
            fields.begin(0, 0).real(22, 1, 0).end(), false)), fieldList));
        assertFalse(image.isServable(), "first part only");
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE,
            fields.begin(0, 0).real(25, 2, 0).end(), false)), fieldList));
        assertTrue(image.isServable());
        assertEquals(2, image.image().fieldCount(), "the second part added to the first");
        assertFalse(encodeAndDecode(1, true).checkHasQos());
    }

    @Test
    void suspectOrClearedImagesAreNotServable()
    {
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE,
            fields.begin(0, 0).real(22, 1, 0).end(), false)), fieldList));
        assertTrue(image.isServable());

        image.applyStatus(wrap(status(DataStates.SUSPECT, false)));
        assertFalse(image.isServable(), "Suspect");
        image.applyStatus(wrap(status(DataStates.OK, false)));
        assertTrue(image.isServable(), "Ok again, image kept");

        image.applyStatus(wrap(status(DataStates.OK, true)));
        assertFalse(image.isServable(), "CLEAR_CACHE empties the image until the next refresh");
        assertEquals(0, image.image().fieldCount());
    }

    @Test
    void aRefreshTakenForItsStateAloneLeavesTheImageUnloadedSoTheNextFullRefreshStartsItAfresh()
    {
        final byte[] garbage = {0x7f, 0x7f, 0x7f};
        image.applyRefreshState(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE, garbage, true)));
        assertEquals(StreamStates.OPEN, image.streamState());
        assertEquals(DataStates.OK, image.dataState());
        assertTrue(image.isRefreshComplete());
        assertFalse(image.isImaged(), "the payload is not read, not even to find it malformed");
        assertEquals(-1, image.payloadType());
        assertFalse(image.isServable());
        assertEquals(CachedImage.NOT_LOADED_TEXT, image.noImageText());

        // no CLEAR_CACHE: still the first payload the image sees, so it loads rather than adds
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE,
            fields.begin(0, 0).real(22, 1, 0).end(), false)), fieldList));
        assertTrue(image.isServable());
        assertEquals(1, image.image().fieldCount());
    }

    @Test
    void malformedFieldListChangesNothing()
    {
        final byte[] good = fields.begin(0, 0).real(22, 1, 0).end();
        assertTrue(image.applyRefresh(wrap(refresh(RefreshMsgFlags.REFRESH_COMPLETE | RefreshMsgFlags.CLEAR_CACHE,
            good, false)), fieldList));

        final byte[] truncated = fields.begin(0, 0).real(22, 2, 0).real(25, 3, 0).end();
        final byte[] bad = update(java.util.Arrays.copyOf(truncated, truncated.length - 2));
        assertFalse(image.applyUpdate(wrap(bad), fieldList), "a FieldList that does not decode is refused");
        assertEquals(1, image.image().fieldCount());
        assertTrue(image.isServable());
    }
}
