package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.Version;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Picker scenarios for K runs per level. Settings: T = 4, L0 merges at 2 groups, write memory 10, so
 * level capacities are C_1 = 10·3 = 30, C_2 = 120, C_3 = 480.
 */
class RunsPerLevelPickerTest {

    private final MergeSettings settings = new MergeSettings(4, 2, 10, 1000);

    private static RunsPerLevelPicker k(int runs) {
        return new RunsPerLevelPicker(runs);
    }

    @Test
    void levelingJoinsL0IntoTheSingleRunOfL1() {
        Version v = Scenario.parse("""
                L0: a-c:5 | b-d:5
                L1: a-z:10
                """);
        MergeTask t = k(1).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(List.of(0, 0, 1), t.inputs().stream().map(MergeTask.Input::level).toList(), "L0 runs newest first, then L1's run");
        assertEquals(1, t.outputLevel());
        assertEquals(MergeTask.NEW_RUN, t.outputRunId());
        assertTrue(t.dropTombstones(), "L1 is the last level and its only run is an input");
    }

    @Test
    void levelingMovesAFullLevelDownWhole() {
        Version v = Scenario.parse("""
                L0:
                L1: a-z:30
                L2: a-z:40
                """);
        MergeTask t = k(1).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(2, t.inputs().size());
        assertEquals(2, t.outputLevel());
        assertTrue(t.dropTombstones());
        assertTrue(k(1).pick(Scenario.parse("L0:\nL1: a-z:29\nL2: a-z:40"), Set.of(), settings).isEmpty(), "below capacity: nothing");
    }

    @Test
    void tieringLikeKStartsARunPerIncomingMerge() {
        Version v = Scenario.parse("""
                L0: a-c:5 | b-d:5
                L1: a-z:10
                """);
        MergeTask t = k(3).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(2, t.inputs().size(), "10 + 10 exceeds the run share C_1/3 = 10: a new run");
        assertEquals(1, t.outputLevel());
        assertFalse(t.dropTombstones(), "L1 keeps an older run");
    }

    @Test
    void moreThanKRunsMoveTheLevelDown() {
        Version v = Scenario.parse("""
                L0:
                L1: a-z:2 | a-z:2 | a-z:2 | a-z:2
                """);
        MergeTask t = k(3).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(4, t.inputs().size());
        assertEquals(2, t.outputLevel(), "a new last level");
        assertTrue(t.dropTombstones());
        assertEquals(4.0 / 3, t.score(), 1e-12);
    }

    @Test
    void inBetweenKJoinsTheNewestRunWhileItHasRoom() {
        // K = 2: run share at L2 is 120/2 = 60; the newest L2 run (20) takes the 30 bytes from L1
        Version v = Scenario.parse("""
                L0:
                L1: a-z:15 | a-z:15
                L2: a-z:20 | a-z:60
                """);
        MergeTask t = k(2).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(List.of(1, 1, 2), t.inputs().stream().map(MergeTask.Input::level).toList());
        assertEquals(20, t.inputs().get(2).tables().get(0).sizeBytes(), "the newest run of L2, not the older one");
        assertFalse(t.dropTombstones(), "the older L2 run stays below the output");
        // the newest L2 run has no room: a new run
        Version full = Scenario.parse("L0:\nL1: a-z:15 | a-z:15\nL2: a-z:40 | a-z:60");
        assertEquals(2, k(2).pick(full, Set.of(), settings).orElseThrow().inputs().size());
    }

    @Test
    void busyTablesBlockTheLevelOrOnlyTheJoin() {
        Version v = Scenario.parse("L0: a-c:5 | b-d:5\nL1: a-z:10");
        assertTrue(k(1).pick(v, Set.of(1L), settings).isEmpty(), "an L0 table is being merged");
        MergeTask t = k(1).pick(v, Set.of(3L), settings).orElseThrow();
        assertEquals(2, t.inputs().size(), "L1's run is busy: the output starts a new run instead of joining it");
        assertFalse(t.dropTombstones());
    }

    @Test
    void theMostOverdueLevelGoesFirst() {
        Version v = Scenario.parse("""
                L0: a-c:5 | b-d:5
                L1: a-z:10
                L2: a-z:240
                """);
        MergeTask t = k(1).pick(v, Set.of(), settings).orElseThrow();
        assertEquals(3, t.outputLevel(), "L2 at twice its capacity outranks L0 at its trigger");
    }

    @Test
    void kIsCappedBelowTheSizeRatio() {
        assertEquals(3, k(9).runs(settings));
        assertEquals(30, RunsPerLevelPicker.capacity(settings, 1));
        assertEquals(480, RunsPerLevelPicker.capacity(settings, 3));
        assertThrows(IllegalArgumentException.class, () -> k(0));
    }
}
