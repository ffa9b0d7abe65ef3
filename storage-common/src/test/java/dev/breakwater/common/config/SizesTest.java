package dev.breakwater.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {

    @Test
    void parsesBytesAndBinaryUnits() {
        assertEquals(16384, Sizes.parse("16384"));
        assertEquals(16384, Sizes.parse("16k"));
        assertEquals(16384, Sizes.parse("16KB"));
        assertEquals(16384, Sizes.parse("16 KiB"));
        assertEquals(64L << 20, Sizes.parse("64MB"));
        assertEquals(64L << 20, Sizes.parse(" 64 m "));
        assertEquals(1L << 30, Sizes.parse("1g"));
        assertEquals(3L << 29, Sizes.parse("1.5GiB"));
        assertEquals(2L << 40, Sizes.parse("2T"));
        assertEquals(7, Sizes.parse("7b"));
        assertEquals(0, Sizes.parse("0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "k", "-1", "-4k", "12 parsecs", "1.5", "0.3k", "1e3", "ten", "9999999999t", "16 k b"})
    void rejectsWithAClearMessage(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sizes.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e.getMessage());
    }

    @Test
    void formatParsesBack() {
        for (long v : new long[] {0, 1, 1000, 4096, 16384, 64L << 20, 3L << 29, 1L << 40, Long.MAX_VALUE}) {
            assertEquals(v, Sizes.parse(Sizes.format(v)), Sizes.format(v));
        }
        assertEquals("64 MiB", Sizes.format(64L << 20));
        assertEquals("1536 MiB", Sizes.format(3L << 29));
        assertEquals("1000 B", Sizes.format(1000));
    }
}
