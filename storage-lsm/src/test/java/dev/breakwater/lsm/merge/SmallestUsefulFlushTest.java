package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.Version;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Scenarios for {@link LevelingPicker#smallestUsefulFlushBytes}: the flush size below which L0 is
 * forced to merge (into itself or into L1) before it holds the batch its merge into L1 waits for.
 */
class SmallestUsefulFlushTest {

    /** T = 10, L0 merges from 4 groups and at 6 in any case, M = 100 (byte trigger 400), target table size 1000. */
    private final MergeSettings settings = new MergeSettings(10, 4, 100, 1000, 0, 6);
    private final LevelingPicker picker = new LevelingPicker();

    @Test
    void theBatchOverTheGroupsBeforeTheCap() {
        // The batch is the byte trigger (400 B) when L1 is large, half of L1 when that is smaller.
        assertEquals(80, picker.smallestUsefulFlushBytes(Scenario.parse("L0:\nL1: a-m:450 n-z:450"), settings));
        assertEquals(30, picker.smallestUsefulFlushBytes(Scenario.parse("L0: a-z:10\nL1: a-z:300"), settings));
    }

    @Test
    void withNothingBelowOrWithoutTheAmortizedTriggerAnyFlushWillDo() {
        assertEquals(0, picker.smallestUsefulFlushBytes(Scenario.parse("L0: a-z:10 | a-z:10\nL1:"), settings));
        assertEquals(0, picker.smallestUsefulFlushBytes(Scenario.parse("L0: a-z:10"), settings));
        assertEquals(0, picker.smallestUsefulFlushBytes(Scenario.parse("L0:\nL1: a-z:900"), new MergeSettings(10, 4, 100, 1000, 0, 4)));
        assertEquals(0, new LevelingPicker(true).smallestUsefulFlushBytes(Scenario.parse("L0:\nL1: a-z:900"), settings));
        assertEquals(0, new TieringPicker().smallestUsefulFlushBytes(Scenario.parse("L0:\nL1: a-z:900"), settings));
    }

    @Test
    void flushesOfThatSizeReachTheBatchBeforeTheGroupCapAndSmallerOnesDoNot() {
        // Five flushes of 80 B: the byte trigger sends L0 into L1 at five groups, below the cap of six.
        Version useful = Scenario.parse("L0: a-z:80 | a-z:80 | a-z:80 | a-z:80 | a-z:80\nL1: a-z:900");
        assertEquals(1, picker.pick(useful, Set.of(), settings).orElseThrow().outputLevel());
        // Six flushes of 30 B: the cap forces a merge at 180 B, and L0 is rewritten within itself.
        Version thin = Scenario.parse("L0: a-z:30 | a-z:30 | a-z:30 | a-z:30 | a-z:30 | a-z:30\nL1: a-z:900");
        assertEquals(0, picker.pick(thin, Set.of(), settings).orElseThrow().outputLevel());
        // Five of them wait: the merge of L0 is not due yet.
        Version waiting = Scenario.parse("L0: a-z:30 | a-z:30 | a-z:30 | a-z:30 | a-z:30\nL1: a-z:900");
        assertTrue(picker.pick(waiting, Set.of(), settings).isEmpty());
    }
}
