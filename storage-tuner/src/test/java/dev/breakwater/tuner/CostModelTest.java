package dev.breakwater.tuner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Eq. 4–6 of paper 000 by hand, and each guard of {@link CostModel}. */
class CostModelTest {

    private static final int PAGE = 1000;
    private static final long X = 1_000_000;
    private static final long TOTAL = 4_000_000;

    private static TuningSample sample(List<TreeSample> trees, long savedQ, long savedM, long readM, long mergePages) {
        return new TuningSample(100, trees, savedQ, savedM, 2_000_000, 50, readM, 30, mergePages, PAGE, X, TOTAL);
    }

    @Test
    void equationsFourToSixAsWritten() {
        // tree a: 100 pages merged, |L_N| = 1000·(0.5·x), 3/4 of flushes memory-triggered
        // tree b: 200 pages merged, |L_N| = 100·(0.5·x), all flushes memory-triggered
        TreeSample a = new TreeSample("a", 100 * PAGE, 300, 100, 500L * X, 0.5);
        TreeSample b = new TreeSample("b", 200 * PAGE, 10, 0, 50L * X, 0.5);
        CostDerivative d = CostModel.derive(sample(List.of(a, b), 40, 10, 60, 300), 2, 1, 10);
        double wa = -(100.0 / 100) / (X * Math.log(1000)) * 0.75;
        double wb = -(200.0 / 100) / (X * Math.log(100));
        assertEquals(wa + wb, d.writePrime(), 1e-18);
        assertEquals((40 + 10) / 100.0 / 2_000_000, d.simulatedPrime(), 1e-18);
        assertEquals((wa + wb) * 60 / 300, d.mergeReadPrime(), 1e-18);
        assertEquals(2 * d.writePrime() + d.readPrime(), d.costPrime(), 1e-18);
        assertEquals((30 + 300) / 100.0, d.writeCost(), 1e-12);
        assertEquals((50 + 60) / 100.0, d.readCost(), 1e-12);
        assertEquals(2 * 3.3 + 1.1, d.cost(), 1e-12);
        assertEquals(0, d.guardedTrees());
    }

    @Test
    void treesWithoutMergesOrWithoutMemoryOrFittingInMemoryAddNothing() {
        TreeSample idle = new TreeSample("idle", 0, 100, 0, 500L * X, 0.5);
        TreeSample noMemory = new TreeSample("cold", 100 * PAGE, 0, 0, 500L * X, 0);
        TreeSample fits = new TreeSample("small", 100 * PAGE, 100, 0, X / 4, 0.5);
        TreeSample emptyLevels = new TreeSample("new", 100 * PAGE, 100, 0, 0, 0.5);
        CostDerivative d = CostModel.derive(sample(List.of(idle, noMemory, fits, emptyLevels), 0, 0, 0, 300), 1, 1, 10);
        assertEquals(0, d.writePrime());
        assertEquals(0, d.mergeReadPrime());
        assertEquals(3, d.guardedTrees());
    }

    @Test
    void lessThanOneLevelCountsAsOneLevel() {
        // |L_N| = 2·a·x: ln 2 would overstate the saving fivefold; the ratio is raised to T = 10
        TreeSample t = new TreeSample("t", 100 * PAGE, 1, 0, X, 0.5);
        CostDerivative d = CostModel.derive(sample(List.of(t), 0, 0, 0, 100), 1, 1, 10);
        assertEquals(-1.0 / (X * Math.log(10)), d.writePrime(), 1e-18);
        assertEquals(1, d.guardedTrees());
    }

    @Test
    void flushCauseScalesTheWriteTerm() {
        TreeSample logOnly = new TreeSample("log", 100 * PAGE, 0, 500, 500L * X, 0.5);
        assertEquals(0, CostModel.derive(sample(List.of(logOnly), 0, 0, 0, 100), 1, 1, 10).writePrime());
        TreeSample noFlush = new TreeSample("quiet", 100 * PAGE, 0, 0, 500L * X, 0.5);
        assertEquals(-1.0 / (X * Math.log(1000)), CostModel.derive(sample(List.of(noFlush), 0, 0, 0, 100), 1, 1, 10).writePrime(), 1e-18);
    }

    /**
     * The query-levels term: each tree's query reads over {@code x·ln(|L_N_i|/(a_i·x))}, with eq. 4's
     * guards, for a tree that flushed but did not merge in the cycle too, and not for a tree that
     * wrote nothing to disk (its levels did not move with x); off, read'(x) is eq. 6 alone.
     */
    @Test
    void queryLevelsTermTakesEachTreesQueryReadsOverItsLevelCount() {
        TreeSample a = new TreeSample("a", 100 * PAGE, 300, 100, 500L * X, 0.5, 40);
        TreeSample unmerged = new TreeSample("b", 0, 10, 0, 50L * X, 0.5, 20);
        TreeSample readOnly = new TreeSample("items", 0, 0, 0, 500L * X, 0, 30);
        TreeSample fits = new TreeSample("small", 0, 0, 0, X / 4, 0.5, 10);
        TreeSample unwritten = new TreeSample("idle", 0, 0, 0, 500L * X, 0.5, 50);
        TuningSample s = sample(List.of(a, unmerged, readOnly, fits, unwritten), 40, 10, 60, 100);
        CostDerivative on = CostModel.derive(s, 2, 1, 10, false, true);
        double qa = -(40 / 100.0) / (X * Math.log(1000));
        double qb = -(20 / 100.0) / (X * Math.log(100));
        assertEquals(qa + qb, on.queryLevelsPrime(), 1e-18);
        assertEquals(on.simulatedPrime() + on.mergeReadPrime() + qa + qb, on.readPrime(), 1e-18);
        CostDerivative off = CostModel.derive(s, 2, 1, 10, false, false);
        assertEquals(0, off.queryLevelsPrime());
        assertEquals(on.writePrime(), off.writePrime(), 1e-18);
        assertEquals(on.costPrime() - (qa + qb), off.costPrime(), 1e-18);
        // eq. 5's factor scales it as it scales the merge term
        assertEquals(qa * 0.75 + qb, CostModel.derive(s, 2, 1, 10, true, true).queryLevelsPrime(), 1e-18);
    }

    /** {@code tuner-flush-cause-scaling=false}: log-triggered flushes no longer zero the merge saving. */
    @Test
    void withoutFlushCauseScalingEveryTreeGetsTheUnscaledTerm() {
        TreeSample logOnly = new TreeSample("log", 100 * PAGE, 0, 500, 500L * X, 0.5);
        TreeSample mixed = new TreeSample("mixed", 100 * PAGE, 100, 300, 500L * X, 0.5);
        TuningSample s = sample(List.of(logOnly, mixed), 0, 0, 0, 200);
        double one = -1.0 / (X * Math.log(1000));
        assertEquals(one * 0.25, CostModel.derive(s, 1, 1, 10, true).writePrime(), 1e-18);
        assertEquals(2 * one, CostModel.derive(s, 1, 1, 10, false).writePrime(), 1e-18);
    }

    /** The log packer's writes are write cost but no derivative term (see {@link CostModel}, "Log trimming"). */
    @Test
    void logTrimWritesCountAsWriteCostOnly() {
        TreeSample a = new TreeSample("a", 100 * PAGE, 300, 100, 500L * X, 0.5);
        TuningSample plain = sample(List.of(a), 40, 10, 60, 300);
        TuningSample trimmed = new TuningSample(100, List.of(a), 40, 10, 2_000_000, 50, 60, 30, 300, PAGE, X, TOTAL, 70);
        CostDerivative p = CostModel.derive(plain, 2, 1, 10);
        CostDerivative t = CostModel.derive(trimmed, 2, 1, 10);
        assertEquals(p.writeCost() + 0.7, t.writeCost(), 1e-12);
        assertEquals(p.cost() + 2 * 0.7, t.cost(), 1e-12);
        assertEquals(p.costPrime(), t.costPrime(), 1e-18);
        assertThrows(IllegalArgumentException.class,
                () -> new TuningSample(100, List.of(a), 0, 0, 1, 0, 0, 0, 0, PAGE, X, TOTAL, -1));
    }

    @Test
    void badInputIsRefusedWithItsName() {
        assertThrows(IllegalArgumentException.class, () -> new TreeSample("t", -1, 0, 0, 0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new TreeSample("t", 0, 0, 0, 0, 1.5));
        assertThrows(IllegalArgumentException.class,
                () -> new TuningSample(1, List.of(), 0, 0, 1, 0, 0, 0, 0, PAGE, TOTAL, TOTAL));
        assertThrows(IllegalArgumentException.class,
                () -> CostModel.derive(new TuningSample(0, List.of(), 0, 0, 1, 0, 0, 0, 0, PAGE, X, TOTAL), 1, 1, 10));
    }
}
