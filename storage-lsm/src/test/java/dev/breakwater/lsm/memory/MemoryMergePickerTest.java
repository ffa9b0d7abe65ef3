package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Memory merge scenarios: M0 = 10 bytes, T = 10, so M1 targets 100 and M2 1000. */
class MemoryMergePickerTest {

    private final MemoryMergeSettings settings = new MemoryMergeSettings(10, 10);

    private static List<Long> ids(List<MemorySSTableMeta> tables) {
        return tables.stream().map(MemorySSTableMeta::id).toList();
    }

    private Optional<MemoryMergeTask> pick(String scenario, Set<Long> busy) {
        return MemoryMergePicker.pick(MemoryScenario.parse(scenario), busy, settings);
    }

    @Test
    void targetsGrowByTheSizeRatioFromM0() {
        assertEquals(100, settings.target(1));
        assertEquals(1000, settings.target(2));
        assertEquals(8L << 20, (long) MemoryMergeSettings.withBase(1L << 20).target(1), "the default ratio is 8");
        assertEquals(64L << 20, (long) MemoryMergeSettings.withBase(1L << 20).target(2));
        assertEquals(4, MemoryMergeSettings.withBase(1L << 20).firstLevelRuns(), "M1 holds up to 4 runs by default");
        assertEquals(1, settings.firstLevelRuns(), "two-argument settings: a leveled M1");
    }

    @Test
    void withTheDefaultRatioM1IsDueAtEightM0sAndGivesItsDensestTableFirst() {
        // M0 = 10 bytes, T = 8: M1 targets 80, M2 640. M1 holds 90 (score 1.125): due, where T = 10 would wait until 100.
        MemoryMergeSettings defaults = MemoryMergeSettings.withBase(10);
        String s = """
                M1: a-f:30 g-k:30 m-z:30
                M2: a-c:90 d-f:90 g-h:10 i-k:10 m-r:60 s-z:60
                """;
        MemoryMergeTask t = MemoryMergePicker.pick(MemoryScenario.parse(s), Set.of(), defaults).orElseThrow();
        assertEquals(List.of(2L), ids(t.upper()), "g-k overlaps 20 bytes below (ratio 0.67), a-f 180, m-z 120");
        assertEquals(List.of(6L, 7L), ids(t.lower()));
        assertEquals(1.125, t.score(), 1e-9);
        assertTrue(pick(s, Set.of()).isEmpty(), "the paper's T = 10: 90 of 100, nothing due");
        assertTrue(MemoryMergePicker.pick(MemoryScenario.parse("""
                M1: a-f:30 g-k:30 m-z:19
                M2: a-z:500
                """), Set.of(), defaults).isEmpty(), "79 of 80: not due");
    }

    @Test
    void nothingIsDueBelowTheTargets() {
        assertTrue(pick("""
                M1: a-c:50 m-p:49
                M2: a-z:5000
                """, Set.of()).isEmpty(), "M1 holds 99 of 100");
    }

    @Test
    void theLastLevelIsUnboundedSoASingleLevelNeverMerges() {
        assertTrue(pick("M1: a-c:5000 d-f:5000", Set.of()).isEmpty());
        assertTrue(pick("""
                M1: a-c:10
                M2: a-z:100000
                """, Set.of()).isEmpty());
    }

    @Test
    void anOverfullLevelMergesTheTableWithTheSmallestOverlapRatio() {
        // M1 holds 150 > 100. a-c overlaps 500 bytes of M2 (ratio 10), m-p 10 (0.2), x-z 100 (2).
        String s = """
                M1: a-c:50 m-p:50 x-z:50
                M2: a-b:300 c-d:200 n-o:10 y-z:100
                """;
        MemoryMergeTask t = pick(s, Set.of()).orElseThrow();
        assertEquals(2, t.outputLevel());
        assertEquals(1, t.inputLevel());
        assertEquals(List.of(2L), ids(t.upper()));
        assertEquals(List.of(6L), ids(t.lower()));
        assertEquals(0.2, t.overlapRatio(), 1e-9);
        assertEquals(1.5, t.score(), 1e-9);
        assertEquals(List.of(2L, 6L), ids(t.allTables()), "newest first");
        assertEquals(60, t.inputBytes());
    }

    @Test
    void busyTablesAndTablesOverlappingBusyOnesAreSkipped() {
        String s = """
                M1: a-c:50 m-p:50 x-z:50
                M2: a-b:300 c-d:200 n-o:10 y-z:100
                """;
        assertEquals(List.of(3L), ids(pick(s, Set.of(2L)).orElseThrow().upper()), "m-p busy: x-z is next best");
        assertEquals(List.of(3L), ids(pick(s, Set.of(6L)).orElseThrow().upper()), "m-p's overlap n-o busy");
        assertEquals(List.of(1L), ids(pick(s, Set.of(2L, 7L)).orElseThrow().upper()), "only a-c is left");
        assertTrue(pick(s, Set.of(1L, 2L, 3L)).isEmpty(), "every M1 table busy");
    }

    @Test
    void aTableOverlappingNothingMovesDownAloneAndTiesGoToTheSmallerKey() {
        MemoryMergeTask t = pick("""
                M1: c-d:60 g-h:60
                M2: a-b:30 x-y:30
                """, Set.of()).orElseThrow();
        assertEquals(List.of(1L), ids(t.upper()));
        assertTrue(t.lower().isEmpty());
        assertEquals(0.0, t.overlapRatio());
    }

    @Test
    void theMostOverdueLevelGoesFirst() {
        // M1: 120/100 = 1.2; M2: 3000/1000 = 3.0, so M2 -> M3 first. In M2, a-m overlaps a-f and g-m
        // (200 B, ratio 0.13); n-r overlaps n-z (20000 B, ratio 13.3).
        String s = """
                M1: a-c:60 x-y:60
                M2: a-m:1500 n-r:1500
                M3: a-f:100 g-m:100 n-z:20000
                """;
        MemoryMergeTask t = pick(s, Set.of()).orElseThrow();
        assertEquals(3, t.outputLevel());
        assertEquals(List.of(3L), ids(t.upper()));
        assertEquals(List.of(5L, 6L), ids(t.lower()));
        // With M2's tables busy, the less overdue M1 still merges: a-c overlaps busy a-m, x-y nothing.
        MemoryMergeTask u = pick(s, Set.of(3L, 4L)).orElseThrow();
        assertEquals(2, u.outputLevel());
        assertEquals(List.of(2L), ids(u.upper()));
        assertTrue(u.lower().isEmpty());
    }

    @Test
    void sealingM0IntoALeveledM1TakesTheOverlappingM1Tables() {
        var levels = MemoryScenario.parse("""
                M1: a-b:10 d-f:20 h-k:30 x-z:40
                M2: a-z:1000
                """);
        MemorySealTask t = seal("c", "i", levels, 1, Set.of(), 1).orElseThrow();
        assertFalse(t.newRun());
        assertEquals(List.of(2L, 3L), ids(t.lower()));
        assertEquals(2.0, t.overlapRatio(), 1e-9);
        assertTrue(seal("c", "i", levels, 1, Set.of(3L), 1).isEmpty());
        MemorySealTask disjoint = seal("l", "m", levels, 1, Set.of(3L), 1).orElseThrow();
        assertTrue(disjoint.lower().isEmpty(), "no overlap: M0 becomes new M1 tables");
        assertFalse(disjoint.newRun());
    }

    private static Optional<MemorySealTask> seal(String lo, String hi, List<List<MemorySSTableMeta>> runs, int m1Runs, Set<Long> busy,
                                                 int firstLevelRuns) {
        return MemoryMergePicker.pickSeal(25, MemoryScenario.bytes(lo), MemoryScenario.bytes(hi), runs, m1Runs, busy, firstLevelRuns);
    }

    @Test
    void aSealOverlappingM1AddsARunWithoutReadingM1UntilM1HoldsItsRuns() {
        // M1 may hold 3 runs. With one or two, an overlapping M0 becomes the newest run, even if M1's tables are busy.
        var one = MemoryScenario.parse("""
                M1: a-f:20 g-z:20
                M2: a-z:1000
                """);
        MemorySealTask t = seal("c", "i", one, 1, Set.of(1L, 2L), 3).orElseThrow();
        assertTrue(t.newRun());
        assertTrue(t.lower().isEmpty());
        assertEquals(0.0, t.overlapRatio());
        var two = MemoryScenario.parse("""
                M1: c-i:25
                M1: a-f:20 g-z:20
                M2: a-z:1000
                """);
        assertTrue(seal("a", "z", two, 2, Set.of(), 3).orElseThrow().newRun());
        // An M0 overlapping no M1 table joins the newest run as it is: no new run, nothing read.
        MemorySealTask disjoint = seal("0", "1", two, 2, Set.of(), 3).orElseThrow();
        assertFalse(disjoint.newRun());
        assertTrue(disjoint.lower().isEmpty());
    }

    @Test
    void whileNoLevelBelowHoldsDataM1StaysOneRunBecauseFlushesDrainIt() {
        // M1 is then the level flushes drain: runs would leave stale versions in the run flushes take first.
        var only = MemoryScenario.parse("M1: a-f:20 g-z:20");
        MemorySealTask t = seal("c", "i", only, 1, Set.of(), 4).orElseThrow();
        assertFalse(t.newRun());
        assertEquals(List.of(1L, 2L), ids(t.lower()), "merged with the overlapping tables, as with one allowed run");
        var emptyM2 = MemoryScenario.parse("""
                M1: a-f:20 g-z:20
                M2:
                """);
        assertFalse(seal("c", "i", emptyM2, 1, Set.of(), 4).orElseThrow().newRun(), "an empty M2: still one run");
        var withM2 = MemoryScenario.parse("""
                M1: a-f:20 g-z:20
                M2: a-z:500
                """);
        assertTrue(seal("c", "i", withM2, 1, Set.of(), 4).orElseThrow().newRun(), "data below M1: a new run");
        // Runs left from before M2 was flushed empty are all merged back by the next overlapping seal.
        var leftOver = MemoryScenario.parse("""
                M1: c-d:5
                M1: a-z:40
                M2:
                """);
        MemorySealTask back = seal("e", "f", leftOver, 2, Set.of(), 4).orElseThrow();
        assertFalse(back.newRun());
        assertEquals(List.of(1L, 2L), ids(back.lower()));
    }

    @Test
    void aSealFindingM1FullMergesM0WithEveryM1TableOfEveryRun() {
        // Two runs of two allowed. M0 spans e-f, which only the older run's a-z overlaps. Merging M0 with
        // a-z alone would give an output spanning a-z, newer than both runs, holding a-z's (older) versions
        // of keys in c-d above the newer run's c-d: so every M1 table is taken, newest run first.
        var two = MemoryScenario.parse("""
                M1: c-d:5
                M1: a-z:40
                M2: a-z:1000
                """);
        MemorySealTask t = seal("e", "f", two, 2, Set.of(), 2).orElseThrow();
        assertFalse(t.newRun());
        assertEquals(List.of(1L, 2L), ids(t.lower()), "newest run first");
        assertEquals(45 / 25.0, t.overlapRatio(), 1e-9);
        assertTrue(seal("e", "f", two, 2, Set.of(1L), 2).isEmpty(), "a busy table of any M1 run, even one M0 misses: wait");
        assertTrue(seal("e", "f", two, 2, Set.of(3L), 2).isPresent(), "M2 busy: no matter");
    }

    @Test
    void mergesFromM1TakeOnlyItsOldestRunAndCountEveryRunAgainstTheTarget() {
        // T = 10, M0 = 10: M1 targets 100. Its runs hold 30 + 40 + 80 = 150: due. The newest run's a-c
        // overlaps nothing in M2 (ratio 0), but only the oldest run's tables may move down: of those,
        // m-p overlaps 10 bytes (ratio 0.25), x-z 500.
        String s = """
                M1: a-c:30
                M1: b-d:40
                M1: m-p:40 x-z:40
                M2: m-n:10 y-z:500
                """;
        var runs = MemoryScenario.parse(s);
        MemoryMergeTask t = MemoryMergePicker.pick(runs, 3, Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel());
        assertEquals(List.of(3L), ids(t.upper()));
        assertEquals(List.of(5L), ids(t.lower()));
        assertEquals(1.5, t.score(), 1e-9);
        assertTrue(MemoryMergePicker.pick(runs, 3, Set.of(3L, 4L), settings).isEmpty(), "the oldest run busy: nothing else may go");
        assertTrue(MemoryMergePicker.pick(MemoryScenario.parse("""
                M1: a-c:30
                M1: b-d:30
                M1: m-p:30
                M2: m-n:10
                """), 3, Set.of(), settings).isEmpty(), "90 of 100: not due");
    }

    @Test
    void deeperLevelsAreCountedAfterM1sRuns() {
        // M1 (two runs, 20 of 100), M2 3000 of 1000: M2 -> M3 merges its table with the smaller overlap.
        String s = """
                M1: a-c:10
                M1: d-f:10
                M2: a-m:1500 n-r:1500
                M3: a-f:100 g-m:100 n-z:20000
                """;
        MemoryMergeTask t = MemoryMergePicker.pick(MemoryScenario.parse(s), 2, Set.of(), settings).orElseThrow();
        assertEquals(3, t.outputLevel());
        assertEquals(List.of(3L), ids(t.upper()));
        assertEquals(List.of(5L, 6L), ids(t.lower()));
    }
}
