package dev.breakwater.tuner.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The skewed cache of session 9 ({@link CachedReadCosts} with θ &gt; 0) and the fits of {@link KeySkew}. */
class KeySkewTest {

    private static final double PAGE = 1000;

    private static CachedReadCosts.Group group(double pages) {
        return new CachedReadCosts.Group(1, pages * PAGE, 1);
    }

    @Test
    void zipfSumByHand() {
        assertEquals(0.5, CachedReadCosts.zipfSum(0.5, 1), 1e-15);
        assertEquals(1, CachedReadCosts.zipfSum(1, 0.7), 1e-15);
        assertEquals(1 + Math.log(10), CachedReadCosts.zipfSum(10, 1), 1e-12);
        assertEquals(10, CachedReadCosts.zipfSum(10, 0), 1e-12);
        assertEquals(1 + (Math.sqrt(100) - 1) / 0.5, CachedReadCosts.zipfSum(100, 0.5), 1e-12);
        assertEquals(CachedReadCosts.zipfSum(50, 1), CachedReadCosts.zipfSum(50, 1 + 1e-12), 1e-9, "continuous through θ = 1");
    }

    @Test
    void workedExampleOneGroup() {
        // 100 pages read at θ = 1, a cache of 10 pages keeps the hottest 10: they serve Z(10)/Z(100) of the reads
        CachedReadCosts.Group[] g = {group(100)};
        double misses = CachedReadCosts.leafMisses(g, new double[] {1}, new double[] {1}, 10 * PAGE, PAGE, 1.0);
        assertEquals(1 - (1 + Math.log(10)) / (1 + Math.log(100)), misses, 1e-6);
        assertEquals(0.41079, misses, 1e-5);
        // uniform keys: the same cache serves 10%
        assertEquals(0.9, CachedReadCosts.leafMisses(g, new double[] {1}, new double[] {1}, 10 * PAGE, PAGE, 0), 1e-12);
    }

    @Test
    void workedExampleTwoGroupsShareTheThreshold() {
        // a small hot group (10 pages, read by half the reads) and a large one (1,000 pages, the other half), θ = 1,
        // cache 100 pages: the pages above one rate threshold λ fill it, k_small = min(10, 0.5/(λ·Z(10))), k_large = 0.5/(λ·Z(1000))
        CachedReadCosts.Group[] g = {group(10), group(1000)};
        double misses = CachedReadCosts.leafMisses(g, new double[] {0.5, 0.5}, new double[] {0.5, 0.5}, 100 * PAGE, PAGE, 1.0);
        // the small group is cached whole (its coldest page, 0.5/(10·Z(10)) = 0.0151, is hotter than the large one's 91st,
        // 0.5/(90·Z(1000)) = 0.00703): the large group keeps 90 pages
        double zl = 1 + Math.log(1000);
        assertEquals(0.5 * (1 - (1 + Math.log(90)) / zl), misses, 1e-6);
    }

    @Test
    void nearZeroSkewIsTheUniformFill() {
        CachedReadCosts.Group[] g = {group(5), group(40), group(300)};
        double[] a = {0.3, 0.5, 1.0};
        double[] cost = {0.3, 0.6, 1.2};
        for (double cache : new double[] {0, 3, 20, 100, 344, 400}) {
            double uniform = CachedReadCosts.leafMisses(g, a, cost, cache * PAGE, PAGE);
            double slight = CachedReadCosts.leafMisses(g, a, cost, cache * PAGE, PAGE, 1e-3);
            assertEquals(uniform, slight, 0.02 * Math.max(0.1, uniform), "cache " + cache);
        }
    }

    @Test
    void moreSkewOrMoreCacheNeverMissesMoreAndTheCachesLastMiBSavesLeast() {
        Environment base = new Environment(300_000, 1500, 16384, 64L << 20, 100.0 / 300_000, 1, 2, true, true);
        Design d = Design.uniform(16L << 20, 10, 10, 1);
        double prev = Double.POSITIVE_INFINITY;
        for (double theta : new double[] {0, 0.25, 0.5, 0.75, 0.99, 1.25, 2}) {
            double z1 = new LsmCostModel(base.withKeySkew(theta), EngineShape.BREAKWATER).costs(d).z1();
            assertTrue(z1 <= prev + 1e-12, "theta " + theta + ": " + z1 + " > " + prev);
            prev = z1;
        }
        for (double theta : new double[] {0.5, 0.99, 1.5}) {
            double last = Double.POSITIVE_INFINITY;
            double lastSaving = Double.POSITIVE_INFINITY;
            for (int mib = 24; mib <= 400; mib += 8) {
                Environment env = new Environment(300_000, 1500, 16384, (long) mib << 20, 100.0 / 300_000, 1, 2, true, true, theta);
                double z1 = new LsmCostModel(env, EngineShape.BREAKWATER).costs(d).z1();
                assertTrue(z1 <= last + 1e-12, "more cache, fewer misses: theta " + theta + " at " + mib + " MiB");
                if (last != Double.POSITIVE_INFINITY) {
                    double saving = last - z1;
                    assertTrue(saving <= lastSaving + 1e-9, "each 8 MiB saves no more than the one before: theta " + theta + " at " + mib);
                    lastSaving = saving;
                }
                last = z1;
            }
        }
    }

    @Test
    void fitsRecoverTheSkewThatProducedTheObservation() {
        Environment env = new Environment(1_777_815, 180, 16384, 64L << 20, 100.0 / 1_777_815, 1, 2, true, true);
        Design running = Design.uniform(16L << 20, 10, 10, 1);
        Workload w = new Workload(0.067, 0.6, 0.014, 0.319);
        for (double theta : new double[] {0.8, 1.1, 1.6}) {
            double misses = KeySkew.readCostPerRead(env, EngineShape.BREAKWATER, running, w, theta);
            assertEquals(theta, KeySkew.fitToMisses(env, EngineShape.BREAKWATER, running, w, misses), 1e-6);
            double saved = KeySkew.savedPerOpPerMiB(env, EngineShape.BREAKWATER, running, w, theta, 128L << 20);
            assertEquals(theta, KeySkew.fitToSimulatedCache(env, EngineShape.BREAKWATER, running, w, saved, 128L << 20), 1e-6);
        }
        assertEquals(0, KeySkew.fitToMisses(env, EngineShape.BREAKWATER, running, w, 10), "more misses than uniform keys give");
        assertEquals(KeySkew.MAX, KeySkew.fitToMisses(env, EngineShape.BREAKWATER, running, w, 0));
        assertEquals(KeySkew.MAX, KeySkew.fitToSimulatedCache(env, EngineShape.BREAKWATER, running, w, 0, 128L << 20));
        assertThrows(IllegalArgumentException.class, () -> new Environment(1, 1, 1, 1, 0, 1, 1, true, true, -0.5));
        assertThrows(IllegalArgumentException.class, () -> KeySkew.fitToMisses(env, EngineShape.BREAKWATER, running, new Workload(0, 0, 0, 1), 0.1));
    }
}
