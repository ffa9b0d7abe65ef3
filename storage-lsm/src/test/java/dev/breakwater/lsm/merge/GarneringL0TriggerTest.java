package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Garnering's L0 triggers, which are leveling's ({@link LevelingPicker#groupScore},
 * {@link LevelingPicker#volumeScore}): an L0 merge at {@code l0MergeGroups} groups waits while L0 is
 * small against the L1 bytes it would rewrite, up to {@code l0MaxGroups}; and L0 is due by volume
 * ({@code l0MergeGroups·M} bytes) even when its flushes form no groups. Before, Garnering merged L0 at
 * {@code l0MergeGroups} groups whatever L1 held, and never when flushes did not overlap.
 *
 * <p>T = 10, c = 0.5, M = 100, L0 merges from 4 groups and at 6 in any case. Three disk levels:
 * C1 = 4000, C2 = 80000, C3 = 800000.
 */
class GarneringL0TriggerTest {

    private final GarneringPicker picker = new GarneringPicker(0.5);
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000, 0, 6);

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    /**
     * {@code groups} L0 groups of one 75-byte table each over a-z (random keys: every group spans the key
     * space; a group, one pass of partial flushes, holds at most about M), so that L0's byte trigger
     * ({@code 4·M = 400 B}) stays off up to 5 groups.
     */
    private static String l0(int groups) {
        StringBuilder b = new StringBuilder("L0:");
        for (int i = 0; i < groups; i++) {
            b.append(i == 0 ? " " : " | ").append("a-z:75");
        }
        return b.toString();
    }

    private static Version tree(int groups, long l1Bytes) {
        return Scenario.parse(l0(groups) + "\nL1: a-m:" + l1Bytes / 2 + " n-z:" + l1Bytes / 2 + "\nL2: a-z:50000\nL3: a-z:500000");
    }

    @Test
    void fourGroupsWaitWhileL1IsLargeAgainstThem() {
        // 300 B of L0 against 3000 B of L1 (C1 = 4000, not due itself): merging now writes 3300 B for
        // 300 taken, ratio 10 > 2. Garnering's large upper levels make this the common case.
        assertTrue(picker.pick(tree(4, 3000), Set.of(), settings).isEmpty(), "4 groups, |L1| = 3000 > 2 x 300: wait");
        assertTrue(picker.pick(tree(5, 3000), Set.of(), settings).isEmpty(), "5 groups: wait");
        MergeTask t = picker.pick(tree(6, 3000), Set.of(), settings).orElseThrow();
        assertEquals(1, t.outputLevel(), t.reason());
        assertEquals(8, t.allTables().size(), "all six groups and both L1 tables: " + t.reason());
        // Without a deeper L0 (l0MaxGroups = l0MergeGroups) the merge is due at 4 groups as before.
        assertTrue(picker.pick(tree(4, 3000), Set.of(), new MergeSettings(10, 4, 100, 1000)).isPresent());
    }

    @Test
    void aSmallL1MergesAtTheMinimumGroupCount() {
        // 300 B of L0 against 600 B of L1: 2 x 300 >= 600.
        MergeTask t = picker.pick(tree(4, 600), Set.of(), settings).orElseThrow();
        assertEquals(1, t.outputLevel());
        assertTrue(picker.pick(tree(3, 600), Set.of(), settings).isEmpty(), "3 groups < 4");
    }

    @Test
    void anOverfullL1StillMergesWhileL0Waits() {
        MergeTask t = picker.pick(tree(5, 4400), Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel(), "L1 over C1 = 4000 goes down; L0 waits: " + t.reason());
    }

    @Test
    void appendOnlyFlushesThatFormOneGroupAreDueByVolume() {
        // Increasing keys: every flush overlaps nothing in L0 and joins the one oldest group, so the
        // group count stays 1; 450 B >= 4·M = 400 B makes L0 due, and the merge takes all of it
        // (two disk levels: C1 = 2000, C2 = 20000, nothing else due).
        Version v = Scenario.parse("""
                L0: b-c:100 d-e:100 f-g:100 h-i:100 j-k:50
                L1: a-a:50 z-z:50
                L2: a-z:15000
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L, 3L, 4L, 5L), files(t), t.reason());
        assertEquals(1, t.outputLevel());
        Version below = Scenario.parse("L0: b-c:100 d-e:100 f-g:100\nL1: a-a:50 z-z:50\nL2: a-z:15000");
        assertTrue(picker.pick(below, Set.of(), settings).isEmpty(), "300 B < 400 B, one group < 4");
    }
}
