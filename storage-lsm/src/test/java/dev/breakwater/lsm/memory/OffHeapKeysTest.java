package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.breakwater.common.memory.OffHeapArena;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OffHeapKeysTest {

    @Test
    void comparisonMatchesUnsignedLexicographicOrderAcrossWordBoundaries() {
        SplittableRandom random = new SplittableRandom(7);
        byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};
        try (OffHeapArena arena = OffHeapArena.allocate("keys-test", 4096, 1)) {
            long base = arena.pageAddress(0);
            for (int i = 0; i < 50_000; i++) {
                byte[] a = randomKey(random, alphabet);
                byte[] b = random.nextInt(4) == 0 ? a.clone() : randomKey(random, alphabet);
                if (random.nextBoolean() && b.length > 0) {
                    b = Arrays.copyOf(a, Math.min(a.length, random.nextInt(a.length + 1))); // a prefix
                }
                long address = base + random.nextInt(16); // unaligned too
                OffHeapKeys.copyIn(a, a.length, address);
                int expected = Integer.signum(Arrays.compareUnsigned(a, b));
                assertEquals(expected, Integer.signum(OffHeapKeys.compare(address, a.length, b, b.length)),
                        Arrays.toString(a) + " vs " + Arrays.toString(b));
                byte[] back = new byte[a.length];
                OffHeapKeys.copyOut(address, back, a.length);
                assertArrayEquals(a, back);
            }
        }
    }

    /**
     * Both off-heap compares and the prefix order, against {@link Arrays#compareUnsigned}, for every
     * pair of lengths in 0..40, the keys sharing a random prefix (so the first difference falls in
     * every word and in the tail), at unaligned addresses.
     */
    @Test
    void offHeapCompareAndPrefixMatchUnsignedOrderForAllLengths() {
        SplittableRandom random = new SplittableRandom(13);
        byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, (byte) 0xFF};
        try (OffHeapArena arena = OffHeapArena.allocate("keys-test", 4096, 1)) {
            long base = arena.pageAddress(0);
            for (int lenA = 0; lenA <= 40; lenA++) {
                for (int lenB = 0; lenB <= 40; lenB++) {
                    for (int trial = 0; trial < 40; trial++) {
                        byte[] a = new byte[lenA];
                        byte[] b = new byte[lenB];
                        int shared = random.nextInt(Math.min(lenA, lenB) + 1);
                        for (int i = 0; i < lenA; i++) {
                            a[i] = alphabet[random.nextInt(alphabet.length)];
                        }
                        for (int i = 0; i < lenB; i++) {
                            b[i] = i < shared ? a[i] : alphabet[random.nextInt(alphabet.length)];
                        }
                        long addressA = base + random.nextInt(16);
                        long addressB = base + 2048 + random.nextInt(16);
                        OffHeapKeys.copyIn(a, lenA, addressA);
                        OffHeapKeys.copyIn(b, lenB, addressB);
                        int expected = Integer.signum(Arrays.compareUnsigned(a, b));
                        String what = Arrays.toString(a) + " vs " + Arrays.toString(b);
                        assertEquals(expected, Integer.signum(OffHeapKeys.compare(addressA, lenA, b, lenB)), what);
                        assertEquals(expected, Integer.signum(OffHeapKeys.compare(addressA, lenA, addressB, lenB)), what);
                        long pa = OffHeapKeys.prefix(addressA, lenA);
                        long pb = OffHeapKeys.prefix(addressB, lenB);
                        if (pa != pb) {
                            assertEquals(expected, Integer.signum(Long.compareUnsigned(pa, pb)), "prefixes decide " + what);
                        }
                        if (expected == 0) {
                            assertEquals(pa, pb, what);
                        }
                    }
                }
            }
        }
    }

    private static byte[] randomKey(SplittableRandom random, byte[] alphabet) {
        byte[] key = new byte[random.nextInt(25)];
        for (int i = 0; i < key.length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }
}
