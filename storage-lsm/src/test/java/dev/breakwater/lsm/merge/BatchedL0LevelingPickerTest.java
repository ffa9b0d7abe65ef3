package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Picker scenarios for leveling with a batched L0 ({@link LevelingPicker#batched()}): the level sizes
 * start from the L0 batch {@code B = l0MergeGroups·M} instead of {@code M}; everything else is the
 * grouped picker's.
 */
class BatchedL0LevelingPickerTest {

    /** T = 10, L0 merges at 3 groups, M = 100: B = 300, B·T = 3000 (the grouped picker: M·T = 1000). */
    private final MergeSettings settings = new MergeSettings(10, 3, 100, 1000);
    private final LevelingPicker batched = new LevelingPicker(true);
    private final LevelingPicker grouped = new LevelingPicker();

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    @Test
    void l0MergesOnlyAtTheConfiguredGroupCountAndTakesTheWholeOverlappingL0() {
        Version two = Scenario.parse("""
                L0: a-m:10 | c-z:10
                L1: a-z:900
                """);
        assertTrue(batched.pick(two, Set.of(), settings).isEmpty(), "2 groups < 3");
        // Three groups spanning the key space (random keys): the closure takes all of L0 and all of L1.
        Version three = Scenario.parse("""
                L0: n-z:10 | a-m:10 | c-z:10 a-b:5
                L1: a-f:300 g-z:600
                """);
        MergeTask t = batched.pick(three, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L), files(t));
        assertEquals(1, t.outputLevel());
        assertTrue(t.dropTombstones(), "L1 is the last level");
    }

    @Test
    void aLevelIsAddedOnlyWhenL1OutgrowsTheBatchTimesT() {
        // |L1| = 2000: the grouped picker adds a level (2000 > M·T = 1000); the batched one keeps
        // merging L0 into the single level until it exceeds B·T = 3000.
        Version v = Scenario.parse("L0:\nL1: a-z:2000");
        assertTrue(grouped.levelChange(v, settings).isPresent());
        assertTrue(batched.levelChange(v, settings).isEmpty());
        MergePicker.LevelChange c = batched.levelChange(Scenario.parse("L0:\nL1: a-z:3100"), settings).orElseThrow();
        assertEquals(1, c.index());
        assertFalse(c.remove());
    }

    @Test
    void levelTargetsStartFromTheBatch() {
        // Three levels, |L2| = 20000. L1 target: grouped, r = sqrt(20000/100) = 14.1 > T, so
        // max(M·T = 1000, 20000/10 = 2000) = 2000; batched, r = sqrt(20000/300) = 8.2 <= T, so
        // B·r = 2449 (equal ratios; B·T would be 3000). An L1 of 2400 is due only for the grouped picker.
        Version v = Scenario.parse("""
                L0:
                L1: a-c:1200 m-p:1200
                L2: a-z:20000
                """);
        assertEquals(2000, grouped.target(v, 1, settings));
        assertEquals(2449, batched.target(v, 1, settings));
        assertTrue(grouped.pick(v, Set.of(), settings).isPresent());
        assertTrue(batched.pick(v, Set.of(), settings).isEmpty());
    }

    @Test
    void l1IsRetiredWhenTheBatchOutgrowsL2() {
        // B·T = 3000 > 1.5·|L2| = 1500 with L1 empty: remove L1 (grouped: 1000 < 1500, keep).
        Version v = Scenario.parse("L0:\nL1:\nL2: a-z:1000");
        assertTrue(grouped.levelChange(v, settings).isEmpty());
        MergePicker.LevelChange c = batched.levelChange(v, settings).orElseThrow();
        assertTrue(c.remove());
        // While L1 still holds data, L0 merges go straight to L2, taking the overlapping L1 tables.
        Version retiring = Scenario.parse("""
                L0: a-c:10 | b-d:10 | c-e:10
                L1: c-e:20 x-y:20
                L2: a-f:200 p-q:200
                """);
        MergeTask t = batched.pick(retiring, Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel());
        assertEquals(Set.of(1L, 2L, 3L, 4L, 6L), files(t));
    }
}
