package dev.breakwater.common.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact byte layouts from {@link KeyFormat}, buffer reuse, and decoder error handling. */
class KeyEncoderTest {

    private final KeyEncoder enc = new KeyEncoder();

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    @Test
    void layoutsMatchTheDescriptor() {
        assertArrayEquals(bytes(0x01), enc.reset().writeNull().toByteArray());
        assertArrayEquals(bytes(0x10, 0x80, 0, 0, 0), enc.reset().writeInt32(0).toByteArray());
        assertArrayEquals(bytes(0x10, 0x7F, 0xFF, 0xFF, 0xFF), enc.reset().writeInt32(-1).toByteArray());
        assertArrayEquals(bytes(0x11, 0, 0, 0, 0, 0, 0, 0, 0), enc.reset().writeInt64(Long.MIN_VALUE).toByteArray());
        assertArrayEquals(bytes(0x12, 0x80, 0, 0, 0, 0, 0, 0, 0), enc.reset().writeFloat64(0.0).toByteArray());
        assertArrayEquals(bytes(0x12, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), enc.reset().writeFloat64(-0.0).toByteArray());
        assertArrayEquals(bytes(0x13, 'a', 0x00, 0xFF, 'b', 0x00, 0x01), enc.reset().writeString("a\0b").toByteArray());
        assertArrayEquals(bytes(0x13, 0xC3, 0xA9, 0x00, 0x01), enc.reset().writeString("\u00e9").toByteArray());
        assertArrayEquals(bytes(0x14, 0x00, 0xFF, 0xFF, 0x00, 0x01), enc.reset().writeBytes(bytes(0, 0xFF)).toByteArray());
        assertArrayEquals(bytes(0x13, 0x00, 0x01, 0x01), enc.reset().writeString("").writeNull().toByteArray());
    }

    @Test
    void floatOrderIsDoubleCompareOrder() {
        double[] ascending = {Double.NEGATIVE_INFINITY, -1.0, -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, 1.0,
                Double.POSITIVE_INFINITY, Double.NaN};
        for (int i = 1; i < ascending.length; i++) {
            byte[] lo = enc.reset().writeFloat64(ascending[i - 1]).toByteArray();
            byte[] hi = enc.reset().writeFloat64(ascending[i]).toByteArray();
            assertTrue(KeyComparator.compare(lo, hi) < 0, ascending[i - 1] + " < " + ascending[i]);
        }
    }

    @Test
    void nullSortsBeforeEveryValue() {
        byte[] nul = enc.reset().writeNull().toByteArray();
        assertTrue(KeyComparator.compare(nul, enc.reset().writeInt32(Integer.MIN_VALUE).toByteArray()) < 0);
        assertTrue(KeyComparator.compare(nul, enc.reset().writeString("").toByteArray()) < 0);
        assertTrue(KeyComparator.compare(nul, enc.reset().writeFloat64(Double.NEGATIVE_INFINITY).toByteArray()) < 0);
    }

    @Test
    void warmedUpEncoderDoesNotReallocate() {
        enc.reset().writeString("a fairly long warm-up string \0\0\0").writeInt64(1).writeBytes(new byte[40]);
        byte[] buffer = enc.array();
        for (int i = 0; i < 1000; i++) {
            enc.reset().writeString("short\0").writeInt64(i).writeFloat64(i).writeBytes(new byte[3]).writeNull();
            assertSame(buffer, enc.array());
        }
    }

    @Test
    void growsFromTinyCapacity() {
        KeyEncoder tiny = new KeyEncoder(1);
        String s = "x".repeat(10_000);
        tiny.writeString(s).writeInt32(7);
        KeyDecoder dec = new KeyDecoder().wrap(tiny.array(), 0, tiny.length());
        assertEquals(s, dec.readString());
        assertEquals(7, dec.readInt32());
    }

    @Test
    void unpairedSurrogateIsRejectedAndLeavesEncoderUnchanged() {
        enc.reset().writeInt32(5);
        byte[] before = enc.toByteArray();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> enc.writeString("ab\ud800c"));
        assertTrue(e.getMessage().contains("index 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> enc.writeString("\udc00"));
        assertThrows(IllegalArgumentException.class, () -> enc.writeString("x\ud800"));
        assertArrayEquals(before, enc.toByteArray());
    }

    @Test
    void decoderReadsWithinOffsetAndLength() {
        byte[] key = enc.reset().writeInt32(-3).writeString("hi").writeNull().toByteArray();
        byte[] framed = new byte[key.length + 6];
        System.arraycopy(key, 0, framed, 3, key.length);
        KeyDecoder dec = new KeyDecoder().wrap(framed, 3, key.length);
        assertEquals(FieldType.INT32, dec.nextType());
        assertEquals(-3, dec.readInt32());
        dec.skip();
        assertTrue(dec.isNull());
        assertNull(dec.readNull());
        assertEquals(key.length, dec.position());
        assertTrue(!dec.hasNext());
    }

    @Test
    void decoderRejectsWrongTypeWithoutMoving() {
        KeyDecoder dec = new KeyDecoder().wrap(enc.reset().writeString("s").toByteArray());
        IllegalStateException e = assertThrows(IllegalStateException.class, dec::readInt64);
        assertTrue(e.getMessage().contains("expected INT64") && e.getMessage().contains("found STRING"), e.getMessage());
        assertEquals("s", dec.readString());
        assertThrows(IllegalStateException.class, dec::readInt32, "past the end");
        assertThrows(IllegalStateException.class,
                () -> new KeyDecoder().wrap(bytes(0x01)).nextType(), "nextType on a null field");
    }

    @Test
    void decoderRejectsMalformedBytes() {
        for (byte[] bad : List.of(bytes(0x10, 0x80, 0), bytes(0x13, 'a'), bytes(0x13, 'a', 0x00),
                bytes(0x14, 0x00, 0x02, 0x00, 0x01), bytes(0x7A))) {
            KeyDecoder dec = new KeyDecoder().wrap(bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
                dec.skip();
                dec.skip();
            });
            assertTrue(e.getMessage().startsWith("malformed key"), e.getMessage());
        }
    }

    @Test
    void stringPrefixBoundsAPrefixScan() {
        byte[] from = enc.reset().writeInt32(1).writeStringPrefix("BAR").toByteArray();
        byte[] to = KeyRanges.prefixEnd(from);
        for (String s : new String[] {"BAR", "BAR\0", "BARBAR", "BAR\uffff", "BAS", "BA", "B", "", "BAQ\uffff"}) {
            byte[] key = enc.reset().writeInt32(1).writeString(s).writeInt64(42).toByteArray();
            boolean inRange = KeyComparator.compare(from, key) <= 0 && KeyComparator.compare(key, to) < 0;
            assertEquals(s.startsWith("BAR"), inRange, s);
            assertEquals(s.startsWith("BAR"), KeyRanges.startsWith(key, from), s);
        }
    }
}
