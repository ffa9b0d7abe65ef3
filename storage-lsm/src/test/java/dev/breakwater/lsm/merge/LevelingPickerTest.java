package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.L0Groups;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Picker scenarios for partitioned leveling with a grouped L0. */
class LevelingPickerTest {

    private final LevelingPicker picker = new LevelingPicker();
    private final MergeSettings settings = new MergeSettings(10, 2, 100, 1000);

    private static Set<Long> files(MergeTask t) {
        return t.allTables().stream().map(TableMeta::fileNumber).collect(Collectors.toSet());
    }

    @Test
    void nothingIsDueBelowTheTriggers() {
        Version v = Scenario.parse("""
                L0: a-c:10
                L1: a-z:500
                L2: a-z:100000
                """);
        assertTrue(picker.pick(v, Set.of(), settings).isEmpty());
    }

    @Test
    void l0MergesTheSmallestGroupWithEveryOverlappingL0TableAndL1Overlaps() {
        // Groups (newest first): {1,2}, {3}, {4,5}. Group {3} is smallest. Its range b-d overlaps
        // table 1 (a-c) of the newer group and table 4 (c-e) of the older one; the closure then grows
        // to a-e. L1 tables 6 (a-b) and 7 (d-f) overlap a-e; 8 (x-z) does not.
        Version v = Scenario.parse("""
                L0: a-c:10 m-n:10 | b-d:10 | c-e:10 p-q:10
                L1: a-b:50 d-f:50 x-z:50
                L2: a-z:100000
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 3L, 4L, 6L, 7L), files(t));
        assertEquals(1, t.outputLevel());
        assertFalse(t.dropTombstones(), "L1 is not the last level");
        // Inputs keep newest-first order: L0 groups in order, then L1.
        assertEquals(List.of(0, 0, 0, 1), t.inputs().stream().map(MergeTask.Input::level).toList());
    }

    @Test
    void l0PrefersTheTableWithTheSmallestOverlapRatio() {
        // Oldest group (2 tables, tie on size with the other group -> oldest first): f-g overlaps
        // 400 bytes of L1, t-u overlaps nothing: t-u wins.
        Version v = Scenario.parse("""
                L0: a-b:10 c-d:10 | f-g:10 t-u:10
                L1: e-h:400
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(4L), files(t));
        assertTrue(t.dropTombstones(), "L1 is the last level");
    }

    @Test
    void busyTablesAreNeverPicked() {
        Version v = Scenario.parse("""
                L0: a-c:10 | b-d:10
                L1: a-z:50
                """);
        assertTrue(picker.pick(v, Set.of(3L), settings).isEmpty(), "the only L1 table is being merged");
        assertTrue(picker.pick(v, Set.of(1L), settings).isEmpty(), "every seed's closure includes table 1");
    }

    @Test
    void overfullLevelMergesTheTableWithMinimumOverlapRatio() {
        // L1 target = max(100*10, |L2|/10 = 1000) = 1000; L1 holds 1500. Table a-c (500) overlaps
        // 3000 below (ratio 6); m-p (500) overlaps 100 (0.2); x-z (500) overlaps 2000 (4).
        Version v = Scenario.parse("""
                L0:
                L1: a-c:500 m-p:500 x-z:500
                L2: a-d:3000 n-o:100 w-z:2000 q-r:4900
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(2L, 5L), files(t));
        assertEquals(2, t.outputLevel());
        assertTrue(t.dropTombstones(), "L2 is the last level");
        assertEquals(1.5, t.score(), 1e-9);
    }

    @Test
    void l1IsAddedWhenTheTreeOutgrowsItsWriteMemory() {
        // M*T = 1000. An L1 of 900: fine. 1100: add an empty L1 on top.
        assertTrue(picker.levelChange(Scenario.parse("L0:\nL1: a-z:900"), settings).isEmpty());
        MergePicker.LevelChange c = picker.levelChange(Scenario.parse("L0:\nL1: a-z:1100"), settings).orElseThrow();
        assertEquals(1, c.index());
        assertTrue(!c.remove());
        assertTrue(picker.levelChange(Scenario.parse("L0:\nL1: a-b:900\nL2: a-z:20000"), settings).isEmpty());
        assertTrue(picker.levelChange(Scenario.parse("L0:\nL1: a-b:1100\nL2: a-z:20000"), settings).isPresent());
        // Right after adding, the new L1 is empty and the old one (now L2) is large: no retire.
        assertTrue(picker.levelChange(Scenario.parse("L0:\nL1:\nL2: a-z:1100"), settings).isEmpty());
    }

    @Test
    void l1IsRetiredWhenTheWriteMemoryOutgrowsIt() {
        // M*T = 1000 with M = 100. |L2| = 600: 1000 > 1.5*600 -> retire. |L2| = 700: 1000 < 1050 -> keep.
        Version keep = Scenario.parse("L0:\nL1: a-b:10\nL2: a-z:700");
        assertTrue(picker.levelChange(keep, settings).isEmpty());
        Version busyL1 = Scenario.parse("L0:\nL1: a-b:10\nL2: a-z:600");
        assertTrue(picker.levelChange(busyL1, settings).isEmpty(), "L1 must be drained first");
        // With nothing else due, L1 drains into L2 (low priority).
        MergeTask drain = picker.pick(busyL1, Set.of(), settings).orElseThrow();
        assertEquals(Set.of(1L, 2L), files(drain));
        assertEquals(2, drain.outputLevel());
        // Once empty, L1 is removed.
        MergePicker.LevelChange c = picker.levelChange(Scenario.parse("L0:\nL1:\nL2: a-z:600"), settings).orElseThrow();
        assertTrue(c.remove());
        assertEquals(1, c.index());
    }

    @Test
    void whileRetiringL1TheL0MergesGoStraightToL2WithTheOverlappingL1Tables() {
        // L0 a-c and b-d (2 groups: due). L1 c-e overlaps; L1 x-y does not. L2 a-f overlaps the
        // range widened by L1 (a-e); L2 p-q does not.
        Version v = Scenario.parse("""
                L0: a-c:10 | b-d:10
                L1: c-e:20 x-y:20
                L2: a-f:200 p-q:200
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel());
        assertEquals(Set.of(1L, 2L, 3L, 5L), files(t));
        assertTrue(t.reason().contains("retiring L1"), t.reason());
    }

    @Test
    void flushedTableJoinsTheOldestGroupNoNewerGroupOverlaps() {
        Version v = Scenario.parse("""
                L0: a-b:1 | x-y:1 | c-d:1
                L1:
                """);
        List<dev.breakwater.lsm.version.Run> l0 = v.level(0);
        // m-n overlaps nothing: deepest group (id 3).
        assertEquals(l0.get(2).id(), L0Groups.groupFor(l0, Scenario.table(9, "m", "n", 1)));
        // w-x overlaps the middle group: goes to the newest group, which does not overlap.
        assertEquals(l0.get(0).id(), L0Groups.groupFor(l0, Scenario.table(9, "w", "x", 1)));
        // a-a overlaps the newest group: a new group.
        assertEquals(L0Groups.NEW_GROUP, L0Groups.groupFor(l0, Scenario.table(9, "a", "a", 1)));
        // c-c overlaps only the oldest group: joins the middle one.
        assertEquals(l0.get(1).id(), L0Groups.groupFor(l0, Scenario.table(9, "c", "c", 1)));
    }

    @Test
    void l1IsSizedForEqualLevelRatiosWhenTheLastLevelIsLessThanTSquaredTimesTheShare() {
        // TPC-C stock at 32 MiB (issue 12, sixth session), scaled: share M = 6, |L2| = 115, L1 one table.
        // The paper's max(M·T, |L2|/T) = 60 let L1 grow to 40-60 while every L0 merge of 4-6 rewrote
        // all of it; equal ratios give r = sqrt(115/6) = 4.4 and target(L1) = M·r = 26.
        MergeSettings stock = new MergeSettings(10, 4, 6, 64);
        Version v = Scenario.parse("""
                L0:
                L1: a-z:30
                L2: a-z:115
                """);
        assertEquals(26, picker.target(v, 1, stock));
        MergeTask t = picker.pick(v, Set.of(), stock).orElseThrow(); // an L1 of 30 is over its target
        assertEquals(2, t.outputLevel());
        // Where the last level is at least M·T^N the two rules agree: |L2| = 600 = 6·10², target 60.
        assertEquals(60, picker.target(Scenario.parse("L0:\nL1: a-z:30\nL2: a-z:600"), 1, stock));
    }

    @Test
    void aDueLevelAdditionHoldsNewMergesUntilL0ReachesItsMaximumGroups() {
        // M = 100, T = 10: L1 of 1200 > M·T wants an empty L1 on top. L0 is due (2 groups), but merging it
        // now would rewrite all of the over-full L1; the scheduler holds new merges so the change goes first
        // (issue 18 measured leveling without the hold: one level grew to 81 MB, write amplification 8.8).
        MergeSettings s = settings.withL0MaxGroups(4);
        Version due = Scenario.parse("""
                L0: a-z:100 | a-z:100
                L1: a-m:600 n-z:600
                """);
        assertTrue(picker.levelChange(due, s).isPresent());
        assertTrue(picker.levelChangeHoldsMerges(due, s));
        // At l0MaxGroups groups the hold lifts (a change that cannot be applied must not stop flushes).
        Version full = Scenario.parse("""
                L0: a-z:100 | a-z:100 | a-z:100 | a-z:100
                L1: a-m:600 n-z:600
                """);
        assertFalse(picker.levelChangeHoldsMerges(full, s));
        assertTrue(picker.pick(full, Set.of(), s).isPresent());
        // With the level added, nothing holds and L0 merges into the new, empty L1.
        Version added = Scenario.parse("""
                L0: a-z:100 | a-z:100
                L1:
                L2: a-m:600 n-z:600
                """);
        assertFalse(picker.levelChangeHoldsMerges(added, s));
        assertEquals(1, picker.pick(added, Set.of(), s).orElseThrow().outputLevel());
    }
}
