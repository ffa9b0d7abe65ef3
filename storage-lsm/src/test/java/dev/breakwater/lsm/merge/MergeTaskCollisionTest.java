package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.TableMeta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When two merges may not run at once ({@link MergeTask#outputCollidesWith}): the case the scheduler
 * met in ManagedTreesModelTest is two merges into L1 whose input tables are disjoint but one of which
 * spans a gap (a coalescing of [a, b] and [m, n], or a move growing a neighbour) that the other's
 * inputs (a table flushed into the gap later) fall into.
 */
class MergeTaskCollisionTest {

    private static long files = 1;

    private static TableMeta table(String lo, String hi) {
        return new TableMeta(files++, 4096, 10, lo.getBytes(StandardCharsets.US_ASCII), hi.getBytes(StandardCharsets.US_ASCII), 1, 2);
    }

    private static MergeTask merge(int fromLevel, int toLevel, long outputRun, TableMeta... tables) {
        return new MergeTask(List.of(new MergeTask.Input(fromLevel, 7, List.of(tables))), toLevel, outputRun, false, 1, "test");
    }

    @Test
    void aMergeSpanningAGapCollidesWithOneWhoseInputsLieInTheGap() {
        MergeTask coalesce = merge(0, 1, MergeTask.LEVEL_RUN, table("a", "b"), table("m", "n")); // writes [a, n]
        MergeTask later = merge(0, 1, MergeTask.LEVEL_RUN, table("f", "g"));                      // flushed into the gap
        assertTrue(coalesce.outputCollidesWith(later));
        assertTrue(later.outputCollidesWith(coalesce));
    }

    @Test
    void disjointHullsTouchingEndsAndOtherRunsOrLevels() {
        MergeTask left = merge(0, 1, MergeTask.LEVEL_RUN, table("a", "c"));
        assertFalse(left.outputCollidesWith(merge(0, 1, MergeTask.LEVEL_RUN, table("d", "f"))), "disjoint hulls");
        assertTrue(left.outputCollidesWith(merge(0, 1, MergeTask.LEVEL_RUN, table("c", "f"))), "a shared end key");
        assertFalse(left.outputCollidesWith(merge(1, 2, MergeTask.LEVEL_RUN, table("a", "c"))), "another output level");
        assertFalse(left.outputCollidesWith(merge(0, 1, 42, table("a", "c"))), "another output run");
        MergeTask tiered = merge(0, 1, MergeTask.NEW_RUN, table("a", "c"));
        assertFalse(tiered.outputCollidesWith(merge(0, 1, MergeTask.NEW_RUN, table("a", "c"))), "new runs are runs of their own");
    }

    @Test
    void keysCompareUnsigned() {
        MergeTask high = merge(0, 1, MergeTask.LEVEL_RUN, new TableMeta(files++, 1, 1, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xff}, 1, 1));
        MergeTask low = merge(0, 1, MergeTask.LEVEL_RUN, new TableMeta(files++, 1, 1, new byte[] {0x00}, new byte[] {0x7f}, 1, 1));
        assertFalse(high.outputCollidesWith(low), "0x80..0xff lies above 0x00..0x7f in unsigned order");
    }
}
