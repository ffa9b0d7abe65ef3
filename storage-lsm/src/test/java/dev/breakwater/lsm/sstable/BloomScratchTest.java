package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link BloomFilterBuilder}'s per-thread hash array: reuse and overlap give the same filters as fresh builders. */
class BloomScratchTest {

    private static long[] filter(long seed, int keys) {
        BloomFilterBuilder b = new BloomFilterBuilder(10);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < keys; i++) {
            b.add(r.nextLong());
        }
        return b.build();
    }

    @Test
    void sequentialAndOverlappingBuildersOnOneThreadDoNotShareHashes() {
        long[] big = filter(1, 50_000); // grows the scratch array beyond its first size
        long[] small = filter(2, 100);
        assertArrayEquals(big, filter(1, 50_000), "rebuilt with the reused (grown) scratch array");
        assertArrayEquals(small, filter(2, 100));
        // Two builders open at once on one thread: the second gets its own array.
        BloomFilterBuilder a = new BloomFilterBuilder(10);
        BloomFilterBuilder b = new BloomFilterBuilder(10);
        SplittableRandom ra = new SplittableRandom(1);
        SplittableRandom rb = new SplittableRandom(2);
        for (int i = 0; i < 50_000; i++) {
            a.add(ra.nextLong());
            if (i < 100) {
                b.add(rb.nextLong());
            }
        }
        assertArrayEquals(small, b.build());
        assertArrayEquals(big, a.build());
        // An abandoned builder keeps the scratch; later builders still work.
        BloomFilterBuilder abandoned = new BloomFilterBuilder(10);
        abandoned.add(7);
        assertArrayEquals(small, filter(2, 100));
        BloomFilterBuilder done = new BloomFilterBuilder(10);
        done.add(1);
        done.build();
        assertThrows(IllegalStateException.class, () -> done.add(2), "no add after build");
    }
}
