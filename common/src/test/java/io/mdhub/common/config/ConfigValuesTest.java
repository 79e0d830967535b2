package io.mdhub.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.mdhub.common.test.InterruptAfter;

@InterruptAfter(30)
class ConfigValuesTest
{
    private static final String KEY = "mdhub.test.config.values";

    @AfterEach
    void clear()
    {
        System.clearProperty(KEY);
    }

    @Test
    void anUnsetKeyGivesItsDefaultEvenOutsideTheRange()
    {
        assertEquals(7, ConfigValues.getInt(KEY, 7, 10, 20));
        assertEquals(-1L, ConfigValues.getDurationNs(KEY, -1L, 0, 10));
    }

    @Test
    void integersTakeSeparatorsAndTheirBounds()
    {
        System.setProperty(KEY, " 1_000 ");
        assertEquals(1_000, ConfigValues.getInt(KEY, 0, 1_000, 1_000));
        System.setProperty(KEY, "1001");
        assertEquals(KEY + " must be in [1, 1000]: '1001'",
            assertThrows(IllegalArgumentException.class, () -> ConfigValues.getInt(KEY, 0, 1, 1_000)).getMessage());
        System.setProperty(KEY, "99999999999");
        assertThrows(IllegalArgumentException.class, () -> ConfigValues.getInt(KEY, 0, 0, Integer.MAX_VALUE));
        System.setProperty(KEY, "ten");
        assertEquals(KEY + " must be an integer: 'ten'",
            assertThrows(IllegalArgumentException.class, () -> ConfigValues.getLong(KEY, 0, 0, 10)).getMessage());
    }

    @Test
    void sizesTakeSuffixesAndNameTheirRangeInTheSameUnits()
    {
        System.setProperty(KEY, "16m");
        assertEquals(16 * 1024 * 1024, ConfigValues.getSize(KEY, 0, 64 * 1024, 1024 * 1024 * 1024));
        System.setProperty(KEY, "-1");
        assertEquals(KEY + " must be in [64k, 1g]: '-1'", assertThrows(IllegalArgumentException.class,
            () -> ConfigValues.getSize(KEY, 0, 64 * 1024, 1024 * 1024 * 1024)).getMessage());
        System.setProperty(KEY, "lots");
        assertThrows(IllegalArgumentException.class, () -> ConfigValues.getSize(KEY, 0, 0, 1024));
    }

    @Test
    void durationsTakeUnitsAndNameTheirRange()
    {
        System.setProperty(KEY, "250ms");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250),
            ConfigValues.getDurationNs(KEY, 0, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1)));
        System.setProperty(KEY, "2h");
        assertThrows(IllegalArgumentException.class,
            () -> ConfigValues.getDurationNs(KEY, 0, 0, TimeUnit.HOURS.toNanos(1)));
        System.setProperty(KEY, "0s");
        assertEquals(KEY + " must be in [1ms, 3600s]: '0s'", assertThrows(IllegalArgumentException.class,
            () -> ConfigValues.getDurationNs(KEY, 0, TimeUnit.MILLISECONDS.toNanos(1), TimeUnit.HOURS.toNanos(1)))
            .getMessage());
    }

    enum Colour
    {
        RED, DARK_BLUE
    }

    @Test
    void enumsMatchAnyCaseAndNameTheChoices()
    {
        assertEquals(Colour.DARK_BLUE, ConfigValues.parseEnum(KEY, Colour.class, " dark_Blue "));
        assertEquals(KEY + " must be red or dark_blue: green", assertThrows(IllegalArgumentException.class,
            () -> ConfigValues.parseEnum(KEY, Colour.class, "green")).getMessage());
    }
}
