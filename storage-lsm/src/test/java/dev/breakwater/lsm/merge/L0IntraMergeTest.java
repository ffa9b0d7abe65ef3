package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Picker scenarios for {@link L0IntraMerge}: when leveling's L0 merge is forced by the group count
 * alone while L0 is thin against L1, all L0 groups merge into one group at the oldest end of L0.
 * Before it, each such forced merge rewrote all of L1 for a few small groups (issue 12: TPC-C trees
 * at 24 MiB of write memory, groups of 1-4 MB over L1 tables of tens of MB).
 */
class L0IntraMergeTest {

    /** T = 10, L0 merges from 4 groups and at 6 in any case, M = 100, target table size 1000. */
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000, 0, 6);
    private final LevelingPicker picker = new LevelingPicker();

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    @Test
    void sixThinGroupsOverALargeL1MergeIntoOneOldestL0Group() {
        // 60 B of L0 in six groups against 900 B of L1: a merge into L1 would write 960 B for 60 B.
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-m:5 n-z:5 | a-z:10 | a-z:10 | a-z:10\nL1: a-m:450 n-z:450");
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(0, t.outputLevel(), t.reason());
        assertEquals(MergeTask.OLDEST_RUN, t.outputRunId());
        assertTrue(t.outputIsOwnRun());
        assertFalse(t.dropTombstones(), "levels below hold older versions");
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), files(t), "every L0 table and no L1 table: " + t.reason());
        // Inputs are the groups newest first, so the newest version of a key wins.
        List<Long> runs = t.inputs().stream().map(MergeTask.Input::runId).toList();
        assertEquals(v.level(0).stream().map(r -> r.id()).toList(), runs);
        assertTrue(t.reason().startsWith("L0 intra-merge: 6 groups"), t.reason());
    }

    @Test
    void belowTheMaximumDepthNothingMerges() {
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1: a-m:450 n-z:450");
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty(), "5 groups: the amortized trigger still waits");
    }

    @Test
    void aLargeEnoughL0GoesIntoL1AsBefore() {
        // 2 x 60 B >= 100 B of L1: the merge into L1 pays for itself, no intra-merge.
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1: a-z:100");
        assertEquals(1, picker.pick(v, Set.of(), settings).orElseThrow().outputLevel());
        // Nothing below: nothing to save.
        Version empty = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1:");
        assertEquals(1, picker.pick(empty, Set.of(), settings).orElseThrow().outputLevel());
    }

    @Test
    void pastTheCostBoundTheForcedMergeGoesIntoL1() {
        // New groups of 10 B, 900 B below: merging within L0 again and again pays only up to
        // sqrt(2·5·10·900) = 300 B of L0. 290 + 50 = 340 B is past it; 240 + 50 = 290 B is not.
        Version past = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:290\nL1: a-z:900");
        assertEquals(1, picker.pick(past, Set.of(), settings).orElseThrow().outputLevel());
        Version before = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:240\nL1: a-z:900");
        assertEquals(0, picker.pick(before, Set.of(), settings).orElseThrow().outputLevel());
        assertFalse(L0IntraMerge.due(past, Set.of(), settings, 1));
        assertTrue(L0IntraMerge.due(before, Set.of(), settings, 1));
    }

    @Test
    void closeToTheByteTriggerTheForcedMergeGoesIntoL1() {
        // Groups of 15 B, 350 B of L0 in six groups against 900 B of L1. The byte trigger (4·M = 400 B)
        // sends all of L0 into L1 after 50 B more, so an intra-merge would rewrite 350 B to take 50 B:
        // past sqrt(2·50·900) = 300 B, the forced merge goes into L1. Counting five more groups
        // (75 B) instead, as before, the bound was sqrt(2·75·900) = 367 B and L0 merged within itself.
        Version v = Scenario.parse("L0: a-z:15 | a-z:15 | a-z:15 | a-z:15 | a-z:15 | a-z:275\nL1: a-z:900");
        assertFalse(L0IntraMerge.due(v, Set.of(), settings, 1));
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(1, t.outputLevel(), t.reason());
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L), files(t), "all of L0 and the L1 table: " + t.reason());
        assertEquals(50.0, L0IntraMerge.growth(350, 15, 900, settings), 1e-9);
        // With M = 200 (byte trigger 800 B) the five groups are the bound: merge within L0.
        MergeSettings farFromBytes = new MergeSettings(10, 4, 200, 1000, 0, 6);
        assertTrue(L0IntraMerge.due(v, Set.of(), farFromBytes, 1));
        assertEquals(0, picker.pick(v, Set.of(), farFromBytes).orElseThrow().outputLevel());
    }

    @Test
    void closeToTheAmortizedTriggerTheForcedMergeGoesIntoL1() {
        // Groups of 20 B, 410 B of L0, 900 B of L1, M = 200 (byte trigger 800 B, far). Five more groups
        // would allow sqrt(2·100·900) = 424 B > 410 B; but after an intra-merge L0 goes into L1 at 4
        // groups once it holds 450 B, three flushes (60 B) later: sqrt(2·60·900) = 329 B < 410 B.
        Version v = Scenario.parse("L0: a-z:20 | a-z:20 | a-z:20 | a-z:20 | a-z:20 | a-z:310\nL1: a-z:900");
        MergeSettings s = new MergeSettings(10, 4, 200, 1000, 0, 6);
        assertFalse(L0IntraMerge.due(v, Set.of(), s, 1));
        assertEquals(1, picker.pick(v, Set.of(), s).orElseThrow().outputLevel());
        assertEquals(60.0, L0IntraMerge.growth(410, 20, 900, s), 1e-9);
        assertEquals(100.0, L0IntraMerge.growth(200, 20, 900, s), 1e-9, "far from both triggers: five groups");
    }

    @Test
    void notWhileAnL0TableIsInARunningMerge() {
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-m:10 n-z:10\nL1: a-m:450 n-z:450");
        assertFalse(L0IntraMerge.due(v, Set.of(6L), settings, 1), "the oldest group's a-m table is being merged");
        picker.pick(v, Set.of(6L, 8L), settings).ifPresent(t -> assertEquals(1, t.outputLevel(), t.reason()));
    }

    @Test
    void offWithoutTheAmortizedTriggerAndForTheBatchedVariant() {
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1: a-m:450 n-z:450");
        MergeSettings noDepth = new MergeSettings(10, 6, 100, 1000, 0, 6);
        assertEquals(1, picker.pick(v, Set.of(), noDepth).orElseThrow().outputLevel(), "l0MaxGroups = l0MergeGroups: as before");
        MergeTask batched = new LevelingPicker(true).pick(v, Set.of(), new MergeSettings(10, 6, 100, 1000, 0, 6)).orElseThrow();
        assertEquals(1, batched.outputLevel());
    }

    @Test
    void whileL1RetiresTheBytesOfBothLevelsBelowCount() {
        // M·T = 1000 > 1.5·|L2|: L1 retires and L0 merges into L2; 60 B of L0 against 100 + 600 B below.
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1: a-z:100\nL2: a-z:600");
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(0, t.outputLevel(), t.reason());
        assertTrue(t.reason().contains("700 B below"), t.reason());
    }

    @Test
    void ownRunOutputsNeverCollide() {
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10\nL1: a-m:450 n-z:450");
        MergeTask intra = picker.pick(v, Set.of(), settings).orElseThrow();
        MergeTask other = new MergeTask(intra.inputs(), 0, MergeTask.OLDEST_RUN, false, 1, "same range");
        assertFalse(intra.outputCollidesWith(other));
    }
}
