package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Picker scenarios for the amortized L0 trigger of leveling ({@link LevelingPicker#groupScore}): from
 * {@code l0MergeGroups} groups an L0 merge is due only once L0 holds at least
 * {@code 1 / L0_OVERLAP_RATIO} of the overlapping bytes below, and at {@code l0MaxGroups} groups in any
 * case. Before this trigger the grouped picker merged at {@code l0MergeGroups} groups whatever L1
 * held, so that each merge of a few small groups rewrote a large L1 (issue 13: 7.6 bytes of merge per
 * byte flushed).
 */
class L0AmortizedTriggerTest {

    /** T = 10, L0 merges from 4 groups and at 6 in any case, M = 100, target table size 1000. */
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000, 0, 6);
    private final LevelingPicker picker = new LevelingPicker();

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    /** {@code groups} L0 groups of one 10-byte table each over a-z (random keys: every group spans the key space). */
    private static String l0(int groups) {
        StringBuilder b = new StringBuilder("L0:");
        for (int i = 0; i < groups; i++) {
            b.append(i == 0 ? " " : " | ").append("a-z:10");
        }
        return b.toString();
    }

    @Test
    void fourSmallGroupsWaitWhileL1IsLarge() {
        // 40 B of L0 against 900 B of L1: merging now would write 940 B for 40 B taken (ratio 22.5 > 2).
        Version v = Scenario.parse(l0(4) + "\nL1: a-m:450 n-z:450");
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty(), "4 groups, L1 = 900 > 2 x 40: wait");
        assertTrue(picker.pick(Scenario.parse(l0(5) + "\nL1: a-m:450 n-z:450"), Set.of(), settings).isEmpty(), "5 groups: wait");
        // The grouped picker without a deeper L0 (l0MaxGroups = l0MergeGroups) merges at 4 as before.
        assertTrue(picker.pick(v, Set.of(), new MergeSettings(10, 4, 100, 1000)).isPresent());
    }

    @Test
    void atTheMaximumDepthL0MergesWhateverL1Holds() {
        // Six groups against 900 B of L1: forced by the group count. With six equal thin groups it is
        // an L0 intra-merge (L0IntraMergeTest); once the oldest group is large (290 B, from earlier
        // intra-merges) L0 is past that rule's bound, sqrt(2·5·10·900) = 300 B, and goes into L1.
        Version v = Scenario.parse("L0: a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:10 | a-z:290\nL1: a-m:450 n-z:450");
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), files(t), "all six groups and all of L1: " + t.reason());
        assertEquals(1, t.outputLevel());
        assertEquals(1.0, LevelingPicker.groupScore(v, settings, 1), 1e-9);
    }

    @Test
    void aSmallL1MergesAtTheMinimumGroupCount() {
        // 40 B of L0 against 80 B of L1: 2 x 40 >= 80, the merge pays for itself.
        Version v = Scenario.parse(l0(4) + "\nL1: a-m:40 n-z:40");
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(1, t.outputLevel());
        assertEquals(6, t.allTables().size());
        // An empty L1, or no L1 yet: nothing to amortize.
        assertTrue(picker.pick(Scenario.parse(l0(4) + "\nL1:"), Set.of(), settings).isPresent());
        assertTrue(picker.pick(Scenario.parse(l0(3) + "\nL1:"), Set.of(), settings).isEmpty(), "3 groups < 4 still waits");
    }

    @Test
    void onlyTheL1BytesUnderL0sKeyRangeCount() {
        // L0 spans a-c; L1's large table x-z is not rewritten by this merge and does not make it wait.
        Version v = Scenario.parse("""
                L0: a-c:10 | a-c:10 | a-c:10 | a-c:10
                L1: a-c:60 x-z:5000
                """);
        assertEquals(60, LevelingPicker.overlappingBelow(v, 1));
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), files(t), t.reason());
    }

    @Test
    void whileL1RetiresTheBytesOfL1AndL2UnderL0Count() {
        // M·T = 1000 > 1.5·|L2| = 600: L1 retires, L0 merges into L2 and takes L1's overlapping tables
        // along, so both are rewritten: 40 B of L0 against 100 + 400 B waits, against 30 + 40 merges.
        Version big = Scenario.parse(l0(4) + "\nL1: a-z:100\nL2: a-z:400");
        assertEquals(500, LevelingPicker.overlappingBelow(big, 2));
        MergeTask drain = picker.pick(big, Set.of(), settings).orElseThrow();
        assertTrue(drain.inputs().stream().noneMatch(in -> in.level() == 0), "only the low-priority L1 drain: " + drain.reason());
        Version small = Scenario.parse(l0(4) + "\nL1: a-z:30\nL2: a-z:40");
        MergeTask t = picker.pick(small, Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel(), t.reason());
    }

    @Test
    void theTableCountTriggerStillFiresWhileTheGroupTriggerWaits() {
        MergeSettings byCount = new MergeSettings(10, 4, 100, 1000, 5, 6);
        Version v = Scenario.parse(l0(5) + "\nL1: a-m:450 n-z:450");
        MergeTask t = picker.pick(v, Set.of(), byCount).orElseThrow();
        assertTrue(t.reason().contains("table-count trigger"), t.reason());
    }

    @Test
    void besideARunningL0MergeOnlyAnAmortizedSliceStarts() {
        // Six groups: due. An L0 merge of the a-m side runs (its L0 and L1 tables are busy). What is
        // left is the n-z side of the oldest group: 10 B of L0 over the 600 B L1 table n-z, ratio 60,
        // so it waits for the running merge; over a 20 B L1 table (ratio 2) it starts beside it.
        String l0 = "L0: a-m:10 | a-m:10 | a-m:10 | a-m:10 | a-m:10 | a-m:10 n-z:10";
        Set<Long> running = Set.of(1L, 2L, 3L, 4L, 5L, 6L, 8L);
        Version v = Scenario.parse(l0 + "\nL1: a-m:60 n-z:600");
        assertTrue(picker.pick(v, running, settings).isEmpty(), "a 10 B slice over 600 B of L1 beside a running L0 merge");
        Version cheap = Scenario.parse(l0 + "\nL1: a-m:60 n-z:20");
        MergeTask t = picker.pick(cheap, running, settings).orElseThrow();
        assertEquals(Set.of(7L, 9L), files(t), t.reason());
        // With nothing running the best-ratio slice is taken, whatever its ratio, as before.
        assertTrue(picker.pick(v, Set.of(), settings).isPresent());
    }

    @Test
    void aMaximumBelowTheMinimumIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new MergeSettings(10, 4, 100, 1000, 0, 3));
        assertEquals(6, settings.withWriteMemory(50).l0MaxGroups());
    }
}
