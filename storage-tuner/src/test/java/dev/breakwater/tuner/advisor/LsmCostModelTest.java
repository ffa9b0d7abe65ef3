package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The slides' equations by hand, and their limiting cases (leveling K = 1, tiering K = T − 1). */
class LsmCostModelTest {

    // N = 10^6 entries of 100 bytes, 40 entries a page, 10 MB of memory, a range read returns 40 entries (one page)
    private static final Environment ENV = Environment.slides(1_000_000, 100, 4000, 10_000_000, 4e-5);
    private static final LsmCostModel MODEL = new LsmCostModel(ENV);
    private static final double F10 = Math.exp(-10 * Math.log(2) * Math.log(2)); // 0.0081925

    @Test
    void levelingByHand() {
        // m_buff = 1 MB: B_e = 10^4 entries; T = 10: two levels hold 10^4·99 < 10^6, three hold 10^4·999
        OperationCosts c = MODEL.costs(Design.uniform(1_000_000, 10, 10, 1));
        assertEquals(3, c.levels());
        assertEquals(0.0081925, c.fpr(), 1e-7);
        double p2 = 9e5 / 9.99e6;
        double p3 = 9e6 / 9.99e6;
        assertEquals(3 * F10, c.z0(), 1e-12);
        assertEquals(1 + F10 * (p2 + 2 * p3), c.z1(), 1e-12);
        assertEquals(1 + 3, c.q(), 1e-12);                   // one page of range + one seek per level
        assertEquals(2.0 / 40 * 3 * (10 - 1 + 1) / 2.0, c.u(), 1e-12); // (1+f_a)/B · L · T/2
        Workload w = new Workload(0.25, 0.25, 0.25, 0.25);
        assertEquals(0.25 * (c.z0() + c.z1() + c.q() + c.u()), c.cost(w), 1e-12);
        assertEquals(0.0, c.cacheHit());
    }

    @Test
    void tieringByHand() {
        OperationCosts c = MODEL.costs(Design.uniform(1_000_000, 10, 10, 9));
        double p2 = 9e5 / 9.99e6;
        double p3 = 9e6 / 9.99e6;
        assertEquals(27 * F10, c.z0(), 1e-12);
        assertEquals(1 + 4 * F10 + 9 * F10 * (p2 + 2 * p3), c.z1(), 1e-12);
        assertEquals(1 + 27, c.q(), 1e-12);
        assertEquals(2.0 / 40 * 3, c.u(), 1e-12);            // each entry merged once per level
    }

    @Test
    void runsPerLevelSitBetweenLevelingAndTiering() {
        double prevU = Double.POSITIVE_INFINITY;
        double prevZ0 = 0;
        for (int k = 1; k <= 9; k++) {
            OperationCosts c = MODEL.costs(Design.uniform(1_000_000, 10, 10, k));
            assertTrue(c.u() < prevU, "more runs per level, cheaper writes");
            assertTrue(c.z0() > prevZ0, "more runs per level, more false positives");
            assertEquals(2.0 / 40 * 3 * (9.0 + k) / (2 * k), c.u(), 1e-12);
            prevU = c.u();
            prevZ0 = c.z0();
        }
        // per-level K: K_1 = 3, K_2 = 2, K_3 = 1 (the slides' "Kapacity" example)
        OperationCosts mixed = MODEL.costs(new Design(1_000_000, 10, 10, new int[] {3, 2, 1}));
        assertEquals(6 * F10, mixed.z0(), 1e-12);
        assertEquals(1 + 6, mixed.q(), 1e-12);
        assertEquals(2.0 / 40 * (12 / 6.0 + 11 / 4.0 + 10 / 2.0), mixed.u(), 1e-12);
    }

    @Test
    void levelCountFollowsBufferAndSizeRatio() {
        long m2 = MODEL.minWriteMemoryFor(2, 10); // N·E / (T² − 1) = 10^8 / 99
        assertEquals(1_010_102, m2);
        assertEquals(2, MODEL.levels(Design.uniform(m2, 10, 10, 1)));
        assertEquals(3, MODEL.levels(Design.uniform(m2 - 1, 10, 10, 1)));
        assertEquals(1, MODEL.levels(Design.uniform(12_000_000, 0, 10, 1)), "B_e·(T − 1) = 1.08·10^6 >= N");
        assertEquals(2, MODEL.levels(Design.uniform(10_000_000, 0, 10, 1)), "B_e·(T − 1) = 9·10^5 < N");
        assertEquals(20, MODEL.levels(Design.uniform(100, 0, 2, 1)), "B_e = 1: 2^L − 1 >= 10^6 at L = 20");
    }

    @Test
    void noFilterMeansEveryRunIsProbed() {
        OperationCosts c = MODEL.costs(Design.uniform(1_000_000, 0, 10, 1));
        assertEquals(1.0, c.fpr());
        assertEquals(3.0, c.z0(), 1e-12);
    }

    @Test
    void cacheModelDiscountsReadsNotWrites() {
        Environment bw = new Environment(1_000_000, 100, 4000, 60_000_000, 4e-5, 1, 1, true, false);
        LsmCostModel m = new LsmCostModel(bw, null); // the uniform-cache model of 2026-11-26 (no engine shape)
        Design d = Design.uniform(1_000_000, 10, 10, 1); // cache: 60 MB − 1 MB − 1.25 MB of filter over 100 MB of data
        OperationCosts c = m.costs(d);
        double hit = (60e6 - 1e6 - 1.25e6) / 1e8;
        assertEquals(hit, c.cacheHit(), 1e-12);
        OperationCosts bare = MODEL.costs(d);
        assertEquals(bare.z1() * (1 - hit), c.z1(), 1e-12);
        assertEquals(bare.u(), c.u(), 1e-12);
    }

    @Test
    void blockedFiltersAreALittleWorseThanTextbook() {
        double blocked = BloomFalsePositives.blocked(10);
        assertTrue(blocked > BloomFalsePositives.textbook(10) && blocked < 0.012, "blocked 10 bits/key: " + blocked);
        assertEquals(1.0, BloomFalsePositives.blocked(0));
        assertTrue(BloomFalsePositives.blocked(16) < BloomFalsePositives.blocked(8));
        for (int h = 0; h <= 64; h++) {
            assertEquals(BloomFalsePositives.blockedSeries(h), BloomFalsePositives.blocked(h), 0, "the table is the series at " + h);
        }
        double between = BloomFalsePositives.blocked(9.5);
        assertTrue(between < BloomFalsePositives.blocked(9) && between > BloomFalsePositives.blocked(10), "fractional bits: the series");
    }

    @Test
    void badInputIsRefusedByName() {
        assertFalse(MODEL.feasible(Design.uniform(9_000_000, 16, 10, 1)), "9 MB + 2 MB of filter > 10 MB");
        assertThrows(IllegalArgumentException.class, () -> MODEL.costs(Design.uniform(9_000_000, 16, 10, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Design.uniform(1, 10, 10, 10));
        assertTrue(e.getMessage().contains("K_1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Workload(-1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new Workload(0, 0, 0, 0));
        assertEquals(0.5, new Workload(2, 2, 0, 0).z0());
    }
}
