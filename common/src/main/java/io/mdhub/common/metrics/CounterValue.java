package io.mdhub.common.metrics;

import java.beans.ConstructorProperties;

/**
 * One counter as {@link CountersMXBean} gives it: id, type, label and value at the moment it was read.
 */
public final class CounterValue
{
    private final int id;
    private final int typeId;
    private final String label;
    private final long value;

    /**
     * @param id     the counter's id.
     * @param typeId its type.
     * @param label  its label ({@code "<name>: key=value ..."}).
     * @param value  its value.
     */
    @ConstructorProperties({"id", "typeId", "label", "value"})
    public CounterValue(final int id, final int typeId, final String label, final long value)
    {
        this.id = id;
        this.typeId = typeId;
        this.label = label;
        this.value = value;
    }

    /**
     * @return the counter's id.
     */
    public int getId()
    {
        return id;
    }

    /**
     * @return its type id.
     */
    public int getTypeId()
    {
        return typeId;
    }

    /**
     * @return its label.
     */
    public String getLabel()
    {
        return label;
    }

    /**
     * @return its value when read.
     */
    public long getValue()
    {
        return value;
    }

    @Override
    public String toString()
    {
        return id + " " + label + " = " + value;
    }
}
