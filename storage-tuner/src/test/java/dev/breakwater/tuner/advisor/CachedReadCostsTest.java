package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Breakwater's read terms by hand: N = 1,000 entries of 100 bytes (D = 100,000 bytes), pages of 1,000
 * bytes (B = 10), a range read returns 10 entries (S = 0.01: one page of the whole data), textbook
 * filters, index entries of 10 bytes (the index is 1% of the data).
 */
class CachedReadCostsTest {

    private static final double F10 = Math.exp(-10 * Math.log(2) * Math.log(2));

    private static LsmCostModel model(long totalMemory, double l0Runs) {
        Environment env = new Environment(1_000, 100, 1_000, totalMemory, 0.01, 1, 1, true, false);
        return new LsmCostModel(env, new EngineShape(l0Runs, 2, 10));
    }

    @Test
    void l0IsAnExtraRunAndSmallRunsAreCachedFirst() {
        // m = 20,000 (B_e = 200), T = 10: B_e·9 >= 1,000, one level. L0: 1 run of 20,000 bytes holding
        // 20% of the keys; L1: 100,000 bytes, 80%. Data 120,000 bytes, index 1,200, no filter (f = 1).
        // M = 41,200: cache 21,200 = index 1,200 + 20,000 for leaves, exactly L0 (read 1/20 a page per
        // read against L1's 1/100).
        OperationCosts c = model(41_200, 1).costs(Design.uniform(20_000, 0, 10, 1));
        assertEquals(1, c.levels());
        assertEquals(1.0, c.z0(), 1e-12);   // both runs probed, L0's leaf cached, L1's read
        assertEquals(0.8, c.z1(), 1e-12);   // 80% of keys are in L1, whose leaves miss
        assertEquals(2.0, c.q(), 1e-12);    // L1: one seek leaf + 0.01·100 range leaves; L0 cached
        assertEquals(20_000 / 120_000.0, c.cacheHit(), 1e-12);
    }

    @Test
    void metadataThatDoesNotFitIsReadToo() {
        // same design, M = 20,600: cache 600 for 1,200 bytes of index, metaHit 1/2, nothing left for
        // leaves. Index cost per descent 2 pages · 1/2 = 1.
        OperationCosts c = model(20_600, 1).costs(Design.uniform(20_000, 0, 10, 1));
        assertEquals(2 + 2, c.z0(), 1e-12);                 // 2 descents (f = 1) + 2 leaves
        assertEquals((0.8 + 0.2) + 0.8 + (1.0 + 0.8), c.z1(), 1e-12); // descents: L0 1.0, L1 0.8; leaves 1.8
        assertEquals(2 + (1.2 + 2.0), c.q(), 1e-12);        // 2 seeks' index + leaves 1 + 0.2 and 1 + 1
    }

    @Test
    void runsPerLevelGroupsByHand() {
        // m = 10,000 (B_e = 100), T = 4, K = 3: B_e·3 < 1,000 <= B_e·15, two levels. L1 holds half of
        // C_1 = 30,000 in (3 + 1)/2 runs; L2 the other 85,000 in 85,000 / (C_2/K = 40,000) + 1/2 runs.
        LsmCostModel m = model(1_000_000, 1);
        Design d = Design.uniform(10_000, 10, 4, 3);
        CachedReadCosts.Group[] g = CachedReadCosts.groups(m.environment(), m.shape(), d, 2);
        assertEquals(3, g.length);
        assertEquals(1, g[0].runs(), 1e-12);
        assertEquals(10_000, g[0].bytes(), 1e-9);
        assertEquals(0.1, g[0].found(), 1e-12);
        assertEquals(2, g[1].runs(), 1e-12);
        assertEquals(15_000, g[1].bytes(), 1e-9);
        assertEquals(0.9 * 0.15, g[1].found(), 1e-12);
        assertEquals(2.625, g[2].runs(), 1e-12);
        assertEquals(85_000, g[2].bytes(), 1e-9);
        assertEquals(0.9 * 0.85, g[2].found(), 1e-12);
    }

    @Test
    void filtersCachedLeavesNotByHand() {
        // as above with M = m + filter 1,250 + index 1,100: filter and index cached, no leaf cached
        OperationCosts c = model(10_000 + 1_250 + 1_100, 1).costs(Design.uniform(10_000, 10, 4, 3));
        assertEquals(F10, c.fpr(), 1e-12);
        assertEquals((1 + 2 + 2.625) * F10, c.z0(), 1e-12);
        // probes that miss: L0 1·0.9; L1 2·(0.9 − 0.135) + 0.135·(2 − 1)/2; L2 0.765·(2.625 − 1)/2
        double misses = 0.9 + (1.53 + 0.0675) + 0.765 * 1.625 / 2;
        assertEquals(1 + F10 * misses, c.z1(), 1e-12);
        assertEquals(5.625 + 0.01 * 110_000 / 1_000, c.q(), 1e-12);
        assertEquals(0.0, c.cacheHit(), 1e-12);
        // a cache larger than everything: no read touches the disk
        OperationCosts all = model(1_000_000, 1).costs(Design.uniform(10_000, 10, 4, 3));
        assertEquals(0.0, all.z0(), 1e-12);
        assertEquals(0.0, all.z1(), 1e-12);
        assertEquals(0.0, all.q(), 1e-12);
        assertEquals(c.u(), all.u(), 1e-12, "writes are not cached");
    }

    @Test
    void withoutL0TheLevelsAreAll() {
        // ℓ0 = 0, leveling, one level, no cache for leaves: the slides' costs plus nothing
        OperationCosts c = model(20_000 + 1_000, 0).costs(Design.uniform(20_000, 0, 10, 1));
        assertEquals(1.0, c.z0(), 1e-12);
        assertEquals(1.0, c.z1(), 1e-12);
        assertEquals(2.0, c.q(), 1e-12);
    }

    @Test
    void indexHeightFromTableAndPageSize() {
        assertEquals(2, EngineShape.indexHeight(1L << 20, 4096, 21));  // 256 leaves, fanout 193
        assertEquals(2, EngineShape.indexHeight(64L << 20, 16384, 21)); // 4,096 leaves, fanout 779
        assertEquals(1, EngineShape.indexHeight(100 << 10, 4096, 21));  // 25 leaves
        assertThrows(IllegalArgumentException.class, () -> new EngineShape(-1, 2, 21));
    }

    @Test
    void breakwaterModelIsTheDefaultWithTheCache() {
        Environment bw = Environment.slides(1_000, 100, 1_000, 1_000_000, 0.01).breakwater();
        assertSame(EngineShape.BREAKWATER, new LsmCostModel(bw).shape());
        assertEquals(null, new LsmCostModel(Environment.slides(1_000, 100, 1_000, 1_000_000, 0.01)).shape());
        assertTrue(EngineShape.BREAKWATER.l0Runs() > 0);
    }
}
