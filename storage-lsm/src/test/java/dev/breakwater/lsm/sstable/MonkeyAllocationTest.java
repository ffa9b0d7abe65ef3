package dev.breakwater.lsm.sstable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Monkey sizing: the same memory as uniform, a smaller summed false-positive rate, the Lagrange optimum. */
class MonkeyAllocationTest {

    private static double[] uniform(int n, double b) {
        double[] u = new double[n];
        Arrays.fill(u, b);
        return u;
    }

    @Test
    void hitsTheUniformMemoryAndBeatsItOnSummedFalsePositives() {
        // Leveling with T = 10: L0 two runs of 1000, then 10^4, 10^5, 10^6 entries.
        long[] entries = {2000, 10_000, 100_000, 1_000_000};
        int[] runs = {2, 1, 1, 1};
        for (double b : new double[] {2, 5, 10}) {
            double[] monkey = MonkeyAllocation.bitsPerKey(entries, runs, b);
            assertEquals(MonkeyAllocation.memoryBits(entries, uniform(4, b)), MonkeyAllocation.memoryBits(entries, monkey), 1e-6 * b * 1_112_000);
            double u = MonkeyAllocation.sumOfFalsePositiveRates(entries, runs, uniform(4, b));
            double m = MonkeyAllocation.sumOfFalsePositiveRates(entries, runs, monkey);
            assertTrue(m < u, b + " bits: Monkey " + m + " vs uniform " + u);
            // Smaller runs get more bits; the largest level gets fewer than uniform.
            for (int i = 1; i < 4; i++) {
                assertTrue(monkey[i - 1] >= monkey[i], Arrays.toString(monkey));
            }
            assertTrue(monkey[3] < b);
        }
    }

    @Test
    void ratesAreProportionalToRunSize() {
        long[] entries = {1000, 10_000, 100_000};
        int[] runs = {1, 1, 1};
        double[] bits = MonkeyAllocation.bitsPerKey(entries, runs, 10);
        double p0 = MonkeyAllocation.falsePositiveRate(bits[0]);
        double p1 = MonkeyAllocation.falsePositiveRate(bits[1]);
        double p2 = MonkeyAllocation.falsePositiveRate(bits[2]);
        assertEquals(10, p1 / p0, 1e-6);
        assertEquals(10, p2 / p1, 1e-6);
    }

    @Test
    void noAllocationWithTheSameMemoryDoesBetter() {
        // Random perturbations that keep the total memory never beat the optimum.
        long[] entries = {4000, 30_000, 250_000, 2_000_000};
        int[] runs = {4, 1, 1, 1};
        double[] best = MonkeyAllocation.bitsPerKey(entries, runs, 6);
        double opt = MonkeyAllocation.sumOfFalsePositiveRates(entries, runs, best);
        Random rnd = new Random(7);
        for (int trial = 0; trial < 1000; trial++) {
            int a = rnd.nextInt(4);
            int b = rnd.nextInt(4);
            if (a == b) {
                continue;
            }
            double[] x = best.clone();
            double moveBits = rnd.nextDouble() * 0.5;
            x[a] += moveBits;
            x[b] -= moveBits * entries[a] / entries[b];
            if (x[b] < 0) {
                continue;
            }
            assertTrue(MonkeyAllocation.sumOfFalsePositiveRates(entries, runs, x) >= opt - 1e-12);
        }
    }

    @Test
    void aTinyBudgetDropsTheLargestLevelsFilterAndCapsApply() {
        long[] entries = {1000, 1_000_000_000L};
        int[] runs = {1, 1};
        double[] bits = MonkeyAllocation.bitsPerKey(entries, runs, 0.01);
        assertTrue(bits[0] > 20, "the small level gets many bits: " + bits[0]);
        assertTrue(bits[1] > 0 && bits[1] < 0.01, "the big level gets a little less than uniform: " + bits[1]);
        assertEquals(0.01 * (1000 + 1_000_000_000L), MonkeyAllocation.memoryBits(entries, bits), 1e-3);
        // Two levels where the big one's filter would be useless: it gets none.
        double[] none = MonkeyAllocation.bitsPerKey(new long[] {1000, 1_000_000}, new int[] {1, 1}, 0.001);
        assertEquals(0, none[1]);
        assertEquals(0.001 * 1_001_000 / 1000, none[0], 1e-9);
        double[] capped = MonkeyAllocation.bitsPerKey(new long[] {1, 1_000_000_000_000L}, new int[] {1, 1}, 20);
        assertEquals(MonkeyAllocation.MAX_BITS, capped[0]);
        assertEquals(20 * 1_000_000_000_001.0, MonkeyAllocation.memoryBits(new long[] {1, 1_000_000_000_000L}, capped), 1e-9 * 20 * 1_000_000_000_001.0);
    }

    @Test
    void emptyLevelsAndZeroBitsAndBadInput() {
        assertArrayEquals(new double[] {10, 10}, MonkeyAllocation.bitsPerKey(new long[] {0, 100}, new int[] {0, 1}, 10), 1e-9);
        assertArrayEquals(new double[] {0, 0}, MonkeyAllocation.bitsPerKey(new long[] {5, 100}, new int[] {1, 1}, 0), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> MonkeyAllocation.bitsPerKey(new long[] {1}, new int[] {1, 1}, 10));
        assertThrows(IllegalArgumentException.class, () -> MonkeyAllocation.bitsPerKey(new long[] {-1}, new int[] {1}, 10));
        assertThrows(IllegalArgumentException.class, () -> MonkeyAllocation.bitsPerKey(new long[] {1}, new int[] {1}, 65));
    }
}
