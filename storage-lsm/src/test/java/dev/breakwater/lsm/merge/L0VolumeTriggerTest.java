package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Picker scenarios for L0's volume triggers under leveling ({@link LevelingPicker#volumeScore}): L0
 * is due at {@code l0MergeGroups·M} bytes, or at {@code l0MergeTables} tables, whatever its group
 * count; such a merge takes all of L0.
 */
class L0VolumeTriggerTest {

    /** T = 10, L0 merges at 4 groups, M = 100 (the byte trigger: 400), target table size 1000. */
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000);
    /** The same with a table-count trigger at 6 tables. */
    private final MergeSettings byCount = new MergeSettings(10, 4, 100, 1000, 6);
    private final LevelingPicker picker = new LevelingPicker();

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    @Test
    void anAppendOnlyGroupBelowTheByteTriggerIsNotDue() {
        Version v = Scenario.parse("""
                L0: b-c:90 d-e:90 f-g:90 h-i:90
                L1: a-a:50
                """);
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty(), "360 B < 4·M = 400 B, one group < 4");
    }

    @Test
    void anAppendOnlyGroupAtTheByteTriggerMergesWhole() {
        Version v = Scenario.parse("""
                L0: b-c:100 d-e:100 f-g:100 h-i:100 j-k:10
                L1: a-a:50 z-z:50
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), files(t), "all of L0; L1 holds nothing in b..k: " + t.reason());
        assertEquals(1, t.outputLevel());
        assertTrue(t.dropTombstones(), "L1 is the last level");
        assertTrue(t.reason().contains("bytes trigger"), t.reason());
    }

    @Test
    void sequentialOverwritesInTwoGroupsMergeWithTheOverlappingL1Tables() {
        // The second pass of a ledger: a newer group of disjoint flushes that each overlap an older
        // wide L0 table, so they never join the oldest group; 2 groups < 4, but 440 B >= 400 B.
        Version v = Scenario.parse("""
                L0: b-c:100 d-e:100 f-g:100 h-i:100 | a-z:40
                L1: a-f:300 g-m:300 n-z:300
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), files(t), "both groups, and the L1 tables under a-z");
        assertEquals(java.util.List.of(0, 0, 1), t.inputs().stream().map(MergeTask.Input::level).toList(), "newest first");
        assertTrue(picker.pick(v, Set.of(7L), settings).isEmpty(), "an overlapping L1 table is busy: no partial L0 merge");
        assertTrue(picker.pick(v, Set.of(3L), settings).isEmpty(), "an L0 table is busy (being merged)");
    }

    @Test
    void theTableCountTriggerMergesManySmallTables() {
        Version five = Scenario.parse("""
                L0: b-c:5 d-e:5 f-g:5 | h-i:5 j-k:5
                L1: a-z:900
                """);
        assertTrue(picker.pick(five, Set.of(), byCount).isEmpty(), "5 tables < 6");
        Version six = Scenario.parse("""
                L0: b-c:5 d-e:5 f-g:5 | h-i:5 j-k:5 l-m:5
                L1: a-z:900
                """);
        MergeTask t = picker.pick(six, Set.of(), byCount).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), files(t));
        assertTrue(t.reason().contains("table-count trigger"), t.reason());
        assertTrue(picker.pick(six, Set.of(), settings).isEmpty(), "without a table-count trigger (0) nothing is due");
    }

    @Test
    void theGroupTriggerStillTakesTheSmallestGroupsClosure() {
        // Four groups holding 600 B (over the byte trigger too): the group trigger keeps its choice,
        // the smallest group's closure (the oldest of the one-table groups, x-y, with every x-y).
        Version v = Scenario.parse("""
                L0: b-c:100 | b-c:100 x-y:100 | x-y:100 | x-y:100 p-q:100
                L1: a-z:900
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertTrue(t.reason().startsWith("L0 group of"), t.reason());
        assertEquals(Set.of(3L, 4L, 5L, 7L), files(t), t.reason());
    }

    @Test
    void whileL1RetiresAllOfL0GoesToL2WithTheOverlappingL1Tables() {
        MergeSettings big = new MergeSettings(10, 4, 1000, 100_000);
        Version v = Scenario.parse("""
                L0: b-c:1000 d-e:1000 f-g:1000 h-i:1000
                L1: c-d:50 x-y:50
                L2: a-e:3000 p-q:3000
                """);
        assertTrue(picker.retiringL1(v, big), "M·T = 10000 > 1.5·|L2| = 9000");
        MergeTask t = picker.pick(v, Set.of(), big).orElseThrow();
        assertEquals(2, t.outputLevel());
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 7L), files(t), t.reason());
    }

    @Test
    void theByteTriggerOfTheBatchedPickerIsTheBatch() {
        // Batched at 3 groups: B = 3·M = 300 B.
        MergeSettings three = new MergeSettings(10, 3, 100, 1000);
        LevelingPicker batched = new LevelingPicker(true);
        assertTrue(batched.pick(Scenario.parse("L0: b-c:100 d-e:100 f-g:90\nL1: a-a:50"), Set.of(), three).isEmpty());
        MergeTask t = batched.pick(Scenario.parse("L0: b-c:100 d-e:100 f-g:100\nL1: a-a:50"), Set.of(), three).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L), files(t));
    }
}
