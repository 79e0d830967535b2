package io.mdhub.common.rwf;

import org.agrona.MutableDirectBuffer;

import com.refinitiv.eta.codec.DataTypes;

/**
 * Writes a copy of a message whose FieldList payload keeps only the fields of a {@link FieldView}: the header bytes
 * are copied as they are (an RWF message's length is its frame's, so nothing in the header changes), then the list's
 * flags and info, the new entry count and the kept entries byte for byte. Messages whose payload is not a plain
 * FieldList (maps, set-defined data, no data) are not filtered: an ADS applies field views to field lists only.
 * No allocation; one instance per thread.
 */
public final class FieldViewFilter
{
    /** {@link #filter} result: the payload is not a FieldList this filter can cut, send the message whole. */
    public static final int NOT_FILTERABLE = -1;

    private final RwfFieldListFlyweight fields = new RwfFieldListFlyweight();
    private int keptFields;

    /**
     * @param message a wrapped, well-formed message.
     * @return true if {@link #filter} can cut its payload.
     */
    public boolean isFilterable(final RwfMsgFlyweight message)
    {
        return DataTypes.FIELD_LIST == message.containerType() &&
            fields.wrap(message.buffer(), message.payloadOffset(), message.payloadLength()) &&
            0 != (fields.flags() & RwfFieldListFlyweight.HAS_STANDARD_DATA);
    }

    /**
     * @param message     a wrapped, well-formed message with a FieldList payload.
     * @param view        the fields to keep.
     * @param destination where the filtered message is written; it must hold at least {@code message.length()}.
     * @param offset      where in destination.
     * @return the filtered message's length, or {@link #NOT_FILTERABLE}; {@link #keptFields()} says how many fields
     * it carries.
     */
    public int filter(
        final RwfMsgFlyweight message, final FieldView view, final MutableDirectBuffer destination, final int offset)
    {
        keptFields = 0;
        if (!isFilterable(message))
        {
            return NOT_FILTERABLE;
        }
        final int headerAndListStart = fields.entriesOffset() - RwfFieldListFlyweight.COUNT_SIZE - message.offset();
        destination.putBytes(offset, message.buffer(), message.offset(), headerAndListStart);
        final int countOffset = offset + headerAndListStart;
        int position = countOffset + RwfFieldListFlyweight.COUNT_SIZE;
        while (fields.next())
        {
            if (view.contains(fields.fieldId()))
            {
                final int entryLength = fields.valueOffset() + fields.valueLength() - fields.entryOffset();
                destination.putBytes(position, fields.buffer(), fields.entryOffset(), entryLength);
                position += entryLength;
                keptFields++;
            }
        }
        destination.putShort(countOffset, (short)keptFields, RwfMsgDescriptor.BYTE_ORDER);
        return position - offset;
    }

    /**
     * @return the fields the last {@link #filter} kept.
     */
    public int keptFields()
    {
        return keptFields;
    }
}
