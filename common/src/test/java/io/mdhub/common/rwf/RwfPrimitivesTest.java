package io.mdhub.common.rwf;

import static io.mdhub.common.rwf.RwfTestSupport.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

/**
 * The variable-width integers, with the byte forms ETA emitted in the enc-probes dump.
 */
@InterruptAfter(10)
class RwfPrimitivesTest
{
    private static void assertU15rb(final int value, final String bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(hex(bytes));
        assertEquals(buffer.capacity(), RwfPrimitives.u15rbWidth(buffer, 0), bytes);
        assertEquals(value, RwfPrimitives.u15rb(buffer, 0), bytes);
    }

    private static void assertU16ob(final int value, final String bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(hex(bytes));
        assertEquals(buffer.capacity(), RwfPrimitives.u16obWidth(buffer, 0), bytes);
        assertEquals(value, RwfPrimitives.u16ob(buffer, 0), bytes);
    }

    private static void assertU30rb(final int value, final String bytes)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(hex(bytes));
        assertEquals(buffer.capacity(), RwfPrimitives.u30rbWidth(buffer, 0), bytes);
        assertEquals(value, RwfPrimitives.u30rb(buffer, 0), bytes);
    }

    @Test
    void u15rb()
    {
        assertU15rb(0, "00");
        assertU15rb(0x7F, "7f");
        assertU15rb(0x1E8, "81 e8");
        assertU15rb(9, "80 09");
        assertU15rb(200, "80 c8");
        assertU15rb(0x7FFF, "ff ff");
    }

    @Test
    void u16ob()
    {
        assertU16ob(253, "fd");
        assertU16ob(254, "fe 00 fe");
        assertU16ob(300, "fe 01 2c");
        assertU16ob(3, "fe 00 03");
        assertU16ob(65535, "fe ff ff");
        assertEquals(RwfPrimitives.INVALID_WIDTH, RwfPrimitives.u16obWidth(new UnsafeBuffer(hex("ff")), 0));
    }

    @Test
    void u30rb()
    {
        assertU30rb(63, "3f");
        assertU30rb(64, "80 40");
        assertU30rb(16383, "bf ff");
        assertU30rb(16384, "40 40 00");
        assertU30rb(4194303, "7f ff ff");
        assertU30rb(4194304, "c0 40 00 00");
        assertU30rb(RwfPrimitives.U30RB_MAX, "ff ff ff ff");
    }
}
