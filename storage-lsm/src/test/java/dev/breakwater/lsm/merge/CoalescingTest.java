package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Scenarios for trivial moves and coalescing of non-overlapping tables under leveling. */
class CoalescingTest {

    /** T = 10, L0 merges at 4 groups, write memory 100, target table size 1000. */
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000);
    private final LevelingPicker picker = new LevelingPicker();

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    private Optional<MergeTask> pick(Version v, Set<Long> busy) {
        return Coalescing.refine(picker, picker.pick(v, busy, settings), v, busy, settings);
    }

    @Test
    void anAppendOnlyL0IsNeverDueForTheGroupTriggerButIsCoalesced() {
        // Increasing keys: every flush joined the one (oldest) group; the group trigger never fires.
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10 j-k:10
                L1: a-a:50
                """);
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty(), "the picker alone leaves them");
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertEquals(1, t.outputLevel());
        assertEquals(MergeTask.LEVEL_RUN, t.outputRunId());
        // The five L0 tables, and L1's small adjacent table a-a (50 < GROWTH * 50, 50 + 50 <= 1000).
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L), files(t));
        assertEquals(List.of(0, 1), t.inputs().stream().map(MergeTask.Input::level).toList(), "newest first");
        assertTrue(t.dropTombstones(), "L1 is the last level and nothing in the span is older");
        assertFalse(TrivialMove.applies(t));
    }

    @Test
    void fewerThanTheMinimumStayInL0() {
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10
                L1: a-a:50
                """);
        assertTrue(pick(v, Set.of()).isEmpty());
    }

    @Test
    void aStretchStopsAtAnL1TableInsideItsSpan() {
        // L1's m-m lies between h-i and n-o: the stretch b..h-i (4 tables) may go, n-o .. may not join it.
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10 n-o:10 p-q:10
                L1: m-m:5000
                """);
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L), files(t), "m-m is too large to grow (5000 + 40 > 1000)");
    }

    @Test
    void sequentialOverwritesOverlappingL1AreMergedWithTheirL1Tables() {
        // Flushes of a second pass over the same keys: disjoint from each other, overlapping L1.
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10
                L1: a-a:50 c-h:60 x-z:500
                """);
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty(), "one group: the group trigger never fires");
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 6L), files(t), t.reason());
        assertEquals(1, t.outputLevel());
        assertTrue(pick(v, Set.of(6L)).isEmpty(), "the overlapping L1 table is busy");
        assertTrue(pick(Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10
                L1: c-h:500
                """), Set.of()).isEmpty(), "fewer than the minimum");
    }

    @Test
    void aThinStretchOverALargeL1TableWaits() {
        // Random keys after a level was added: 40 B of the oldest group over a 500 B L1 table would
        // rewrite 12.5 bytes of L1 per byte taken from L0 (more than L0_OVERLAP_RATIO = 2); the
        // picker's own L0 triggers take L0 later, in a larger batch.
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10
                L1: a-a:50 c-h:500 x-z:500
                """);
        assertTrue(pick(v, Set.of()).isEmpty());
        // At 2 bytes below per byte of L0 it merges.
        assertTrue(pick(Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10
                L1: a-a:50 c-h:80 x-z:500
                """), Set.of()).isPresent());
    }

    @Test
    void onlyTheOldestGroupIsCoalescedAndBusyTablesBreakTheStretch() {
        // Newest group x-y is not taken (an older group might hold its keys in general).
        Version v = Scenario.parse("""
                L0: x-y:10 | b-c:10 d-e:10 f-g:10 h-i:10 j-k:10
                L1: a-a:5000
                """);
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertEquals(Set.of(2L, 3L, 4L, 5L, 6L), files(t));
        assertTrue(pick(v, Set.of(4L)).isEmpty(), "busy f-g leaves stretches of 2 and 2");
    }

    @Test
    void noCoalescingWhileRetiringL1() {
        MergeSettings big = new MergeSettings(10, 4, 1_000_000, 1000);
        Version v = Scenario.parse("""
                L0: b-c:10 d-e:10 f-g:10 h-i:10
                L1: a-a:50
                L2: z-z:50
                """);
        assertTrue(new LevelingPicker().retiringL1(v, big));
        assertTrue(Coalescing.refine(new LevelingPicker(), Optional.empty(), v, Set.of(), big).isEmpty());
    }

    @Test
    void aLevelMergeWithoutOverlapIsATrivialMove() {
        // L1 is over its target (max(M*T, |L2|/T) = 1000), and its table b-c overlaps nothing in L2: a move.
        Version v = Scenario.parse("""
                L0:
                L1: b-c:1500
                L2: x-z:5000
                """);
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertTrue(TrivialMove.applies(t), t.reason());
        assertEquals(2, t.outputLevel());
        assertEquals(1L, TrivialMove.table(t).fileNumber());
    }

    @Test
    void aSmallMovedTableGrowsItsSmallNeighbour() {
        // Two L1 tables of 600 make L1 (1200) exceed its target (1000); the chosen table c-d moves
        // next to L2's small e-f (300 < 4 * 600, 300 + 600 <= 1000): they merge instead.
        Version v = Scenario.parse("""
                L0:
                L1: c-d:600 m-n:600
                L2: e-f:300 x-z:5000
                """);
        MergeTask t = pick(v, Set.of()).orElseThrow();
        assertFalse(TrivialMove.applies(t));
        assertEquals(Set.of(1L, 3L), files(t));
        assertEquals(List.of(1, 2), t.inputs().stream().map(MergeTask.Input::level).toList());
    }

    @Test
    void aNeighbourStopsGrowingAtTheGrowthBoundOrTheTargetSize() {
        Version v = Scenario.parse("""
                L0:
                L1: a-a:100
                """);
        var run = v.level(1).get(0);
        byte[] lo = "b".getBytes();
        byte[] hi = "c".getBytes();
        assertSame(run.tables().get(0), Coalescing.neighbour(run, lo, hi, 30, Set.of(), settings));
        assertEquals(null, Coalescing.neighbour(run, lo, hi, 25, Set.of(), settings), "100 is not under 4 * 25");
        assertEquals(null, Coalescing.neighbour(run, lo, hi, 950, Set.of(), settings), "100 + 950 > 1000");
        assertEquals(null, Coalescing.neighbour(run, lo, hi, 30, Set.of(1L), settings), "busy");
    }

    @Test
    void overlappingMergesPassUnchanged() {
        Version v = Scenario.parse("""
                L0: a-c:10 | b-d:10 | c-e:10 | d-f:10
                L1: a-z:500
                """);
        MergeTask picked = picker.pick(v, Set.of(), settings).orElseThrow();
        assertSame(picked, Coalescing.refine(new LevelingPicker(), Optional.of(picked), v, Set.of(), settings).orElseThrow());
    }
}
