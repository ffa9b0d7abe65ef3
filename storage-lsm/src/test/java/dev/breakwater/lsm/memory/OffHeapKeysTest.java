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

    private static byte[] randomKey(SplittableRandom random, byte[] alphabet) {
        byte[] key = new byte[random.nextInt(25)];
        for (int i = 0; i < key.length; i++) {
            key[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return key;
    }
}
