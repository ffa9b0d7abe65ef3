package dev.breakwater.common.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyRangesTest {

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    @Test
    void incrementsTheLastByte() {
        assertArrayEquals(bytes(0x01, 0x03), KeyRanges.prefixEnd(bytes(0x01, 0x02)));
        assertArrayEquals(bytes(0x80), KeyRanges.prefixEnd(bytes(0x7F)));
        assertArrayEquals(bytes(0x01), KeyRanges.prefixEnd(bytes(0x00)));
    }

    @Test
    void dropsTrailingFFBytes() {
        assertArrayEquals(bytes(0x02), KeyRanges.prefixEnd(bytes(0x01, 0xFF)));
        assertArrayEquals(bytes(0x10, 0xFF), KeyRanges.prefixEnd(bytes(0x10, 0xFE, 0xFF, 0xFF)));
    }

    @Test
    void noEndForEmptyOrAllFF() {
        assertNull(KeyRanges.prefixEnd(new byte[0]));
        assertNull(KeyRanges.prefixEnd(bytes(0xFF)));
        assertNull(KeyRanges.prefixEnd(bytes(0xFF, 0xFF, 0xFF)));
    }

    @Test
    void doesNotModifyItsArgument() {
        byte[] p = bytes(0x01, 0xFF);
        KeyRanges.prefixEnd(p);
        assertArrayEquals(bytes(0x01, 0xFF), p);
    }

    /** For random prefixes and keys over a tiny alphabet: startsWith(k, p) iff p <= k < prefixEnd(p). */
    @Test
    void rangeContainsExactlyTheKeysWithThePrefix() {
        Random random = new Random(42);
        int[] alphabet = {0x00, 0x01, 0x7F, 0xFE, 0xFF};
        for (int i = 0; i < 50_000; i++) {
            byte[] p = randomBytes(random, alphabet, 3);
            byte[] k = randomBytes(random, alphabet, 5);
            byte[] end = KeyRanges.prefixEnd(p);
            boolean inRange = KeyComparator.compare(p, k) <= 0 && (end == null || KeyComparator.compare(k, end) < 0);
            assertEquals(KeyRanges.startsWith(k, p), inRange);
        }
    }

    private static byte[] randomBytes(Random random, int[] alphabet, int maxLength) {
        byte[] b = new byte[random.nextInt(maxLength + 1)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) alphabet[random.nextInt(alphabet.length)];
        }
        return b;
    }
}
