package io.mdhub.common.rwf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import com.refinitiv.eta.codec.Buffer;
import com.refinitiv.eta.codec.Codec;
import com.refinitiv.eta.codec.CodecFactory;
import com.refinitiv.eta.codec.CodecReturnCodes;
import com.refinitiv.eta.codec.DataTypes;
import com.refinitiv.eta.codec.DecodeIterator;
import com.refinitiv.eta.codec.EncodeIterator;
import com.refinitiv.eta.codec.FieldList;
import com.refinitiv.eta.codec.MsgClasses;
import com.refinitiv.eta.codec.UpdateMsg;
import com.refinitiv.eta.codec.UpdateMsgFlags;
import com.refinitiv.eta.rdm.DomainTypes;

import io.mdhub.common.cache.EtaFieldLists;
import io.mdhub.common.test.InterruptAfter;

/**
 * The view filter against messages ETA encodes and decodes: the copy keeps the header byte for byte, the list's info,
 * and exactly the view's entries with their values; anything but a plain FieldList is left whole.
 */
@InterruptAfter(30)
class FieldViewFilterTest
{
    private final FieldViewFilter filter = new FieldViewFilter();
    private final RwfMsgFlyweight message = new RwfMsgFlyweight();
    private final EtaFieldLists fields = new EtaFieldLists();

    @Test
    void keepsTheHeaderTheInfoAndOnlyTheViewsEntries()
    {
        final byte[] list = fields.begin(1, 7)
            .uint(1, 64).real(22, 12344, 12).ascii(1000, "x".repeat(300)).real(-100, -1, 14).real(25, 12346, 12)
            .end();
        final byte[] update = update(DataTypes.FIELD_LIST, list);
        assertTrue(message.wrap(new UnsafeBuffer(update), 0, update.length));
        final UnsafeBuffer out = new UnsafeBuffer(new byte[update.length]);

        final int length = filter.filter(message, FieldView.of(25, 1000, -100, 4000), out, 0);

        assertEquals(3, filter.keptFields());
        final byte[] filtered = new byte[length];
        out.getBytes(0, filtered);
        final DecodeIterator it = CodecFactory.createDecodeIterator();
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(ByteBuffer.wrap(filtered));
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        final UpdateMsg decoded = (UpdateMsg)CodecFactory.createMsg();
        assertEquals(CodecReturnCodes.SUCCESS, decoded.decode(it));
        assertEquals(MsgClasses.UPDATE, decoded.msgClass());
        assertEquals(9, decoded.streamId());
        assertEquals(1234, decoded.seqNum(), "the header is untouched");
        final FieldList header = EtaFieldLists.decodeHeader(payload(decoded));
        assertTrue(header.checkHasInfo());
        assertEquals(1, header.dictionaryId());
        assertEquals(7, header.fieldListNum());
        final Map<Integer, byte[]> kept = EtaFieldLists.decode(payload(decoded));
        final Map<Integer, byte[]> all = EtaFieldLists.decode(list);
        assertEquals(List.of(1000, -100, 25), List.copyOf(kept.keySet()), "in the source's order");
        for (final int fid : kept.keySet())
        {
            assertArrayEquals(all.get(fid), kept.get(fid), "value of " + fid);
        }
    }

    @Test
    void aViewNoneOfWhoseFieldsAreInTheMessageKeepsNone()
    {
        final byte[] update = update(DataTypes.FIELD_LIST, fields.begin(0, 0).real(22, 1, 12).end());
        assertTrue(message.wrap(new UnsafeBuffer(update), 0, update.length));
        final int length = filter.filter(message, FieldView.of(25), new UnsafeBuffer(new byte[update.length]), 0);
        assertTrue(length > 0);
        assertEquals(0, filter.keptFields());
    }

    @Test
    void anythingButAFieldListIsNotFiltered()
    {
        final byte[] update = update(DataTypes.ELEMENT_LIST, new byte[] {0x08, 0x00, 0x00});
        assertTrue(message.wrap(new UnsafeBuffer(update), 0, update.length));
        assertFalse(filter.isFilterable(message));
        assertEquals(FieldViewFilter.NOT_FILTERABLE,
            filter.filter(message, FieldView.of(22), new UnsafeBuffer(new byte[update.length]), 0));
    }

    @Test
    void viewsAreSetsOfInt16FieldIds()
    {
        final FieldView view = FieldView.of(25, 22, 22, -32768, 32767);
        assertArrayEquals(new int[] {-32768, 22, 25, 32767}, view.fieldIds());
        assertTrue(view.contains(-32768) && view.contains(32767) && view.contains(22));
        assertFalse(view.contains(23) || view.contains(0) || view.contains(-1));
        assertEquals(FieldView.of(22, 25, 32767, -32768), view);
        assertEquals(FieldView.of(1, 2, 3), FieldView.of(1, 2).union(FieldView.of(2, 3)));
        assertEquals(null, FieldView.of(1).union(null), "a union with every field is every field");
        assertThrows(IllegalArgumentException.class, () -> FieldView.of(32768));
        assertTrue(FieldView.of(22, 25, 6).covers(FieldView.of(25, 6)));
        assertFalse(FieldView.of(22, 25).covers(FieldView.of(25, 32)));
        assertFalse(FieldView.of(22, 25).covers(null), "no view covers every field");
        assertFalse(FieldView.of().contains(0), "an empty view holds nothing");
    }

    private static byte[] update(final int containerType, final byte[] payload)
    {
        final UpdateMsg update = (UpdateMsg)CodecFactory.createMsg();
        update.msgClass(MsgClasses.UPDATE);
        update.domainType(DomainTypes.MARKET_PRICE);
        update.streamId(9);
        update.containerType(containerType);
        update.flags(UpdateMsgFlags.HAS_SEQ_NUM);
        update.seqNum(1234);
        update.encodedDataBody().data(ByteBuffer.wrap(payload));
        final ByteBuffer bytes = ByteBuffer.allocate(payload.length + 64);
        final Buffer buffer = CodecFactory.createBuffer();
        buffer.data(bytes);
        final EncodeIterator it = CodecFactory.createEncodeIterator();
        it.setBufferAndRWFVersion(buffer, Codec.majorVersion(), Codec.minorVersion());
        assertEquals(CodecReturnCodes.SUCCESS, update.encode(it));
        final byte[] out = new byte[bytes.position()];
        bytes.get(0, out);
        return out;
    }

    private static byte[] payload(final UpdateMsg msg)
    {
        final Buffer body = msg.encodedDataBody();
        final byte[] out = new byte[body.length()];
        for (int i = 0; i < out.length; i++)
        {
            out[i] = body.data().get(body.position() + i);
        }
        return out;
    }
}
