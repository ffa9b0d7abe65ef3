package dev.breakwater.lsm.memory;

import static dev.breakwater.lsm.memory.MemoryScenario.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.memory.MemoryFlushTask.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlushPickerTest {

    private static List<Long> ids(MemoryFlushTask t) {
        return t.allTables().stream().map(MemorySSTableMeta::id).toList();
    }

    private static List<Integer> levels(MemoryFlushTask t) {
        return t.inputs().stream().map(MemoryFlushTask.Input::level).toList();
    }

    @Test
    void memoryTriggeredFlushesWalkTheLastLevelRoundRobinAndWrap() {
        var levels = MemoryScenario.parse("""
                M1: a-z:10
                M2: a-b:10 c-d:10 e-f:10
                """);
        List<Long> order = new ArrayList<>();
        byte[] position = null;
        for (int i = 0; i < 5; i++) {
            MemoryFlushTask t = FlushPicker.pickMemoryTriggered(levels, position, Set.of()).orElseThrow();
            assertEquals(Kind.MEMORY_TRIGGERED, t.kind());
            assertEquals(List.of(2), levels(t), "only the last level flushes; newer M1 stays in memory");
            MemorySSTableMeta flushed = t.allTables().get(0);
            order.add(flushed.id());
            position = flushed.largest();
        }
        assertEquals(List.of(2L, 3L, 4L, 2L, 3L), order);
    }

    @Test
    void aByteTargetTakesConsecutiveTablesUpToTheEndOfTheLevel() {
        var levels = MemoryScenario.parse("M1: a-b:10 c-d:10 e-f:10 g-h:10");
        assertEquals(List.of(1L, 2L, 3L), ids(FlushPicker.pickMemoryTriggered(levels, null, Set.of(), 25).orElseThrow()),
                "tables until 25 bytes are reached");
        assertEquals(List.of(3L, 4L), ids(FlushPicker.pickMemoryTriggered(levels, bytes("d"), Set.of(), 25).orElseThrow()),
                "a pick stops at the end of the level, so its tables stay in key order; the next one wraps");
        assertEquals(List.of(1L, 3L, 4L), ids(FlushPicker.pickMemoryTriggered(levels, null, Set.of(2L), 30).orElseThrow()),
                "busy tables are skipped");
        assertEquals(List.of(1L), ids(FlushPicker.pickMemoryTriggered(levels, null, Set.of(), 1).orElseThrow()));
    }

    @Test
    void theRoundRobinPositionIsAKeySoItSurvivesTablesComingAndGoing() {
        // The previous pick ended at "d"; c-d has since been merged away and c-e replaced it.
        var levels = MemoryScenario.parse("M1: a-b:10 c-e:10 f-g:10");
        assertEquals(List.of(3L), ids(FlushPicker.pickMemoryTriggered(levels, bytes("d"), Set.of()).orElseThrow()),
                "c-e starts at or before d: it was passed over, f-g is next");
        assertEquals(List.of(1L), ids(FlushPicker.pickMemoryTriggered(levels, bytes("g"), Set.of()).orElseThrow()),
                "past the last table: wrap");
    }

    @Test
    void busyTablesAreSkippedInTheRoundRobin() {
        var levels = MemoryScenario.parse("M1: a-b:10 c-d:10 e-f:10");
        assertEquals(List.of(3L), ids(FlushPicker.pickMemoryTriggered(levels, bytes("b"), Set.of(2L)).orElseThrow()));
        assertEquals(List.of(1L), ids(FlushPicker.pickMemoryTriggered(levels, bytes("b"), Set.of(2L, 3L)).orElseThrow()),
                "wraps past busy tables");
        assertTrue(FlushPicker.pickMemoryTriggered(levels, null, Set.of(1L, 2L, 3L)).isEmpty());
    }

    @Test
    void memoryTriggeredUsesTheDeepestNonEmptyLevel() {
        var levels = MemoryScenario.parse("""
                M1: a-c:10 d-f:10
                M2:
                M3:
                """);
        MemoryFlushTask t = FlushPicker.pickMemoryTriggered(levels, null, Set.of()).orElseThrow();
        assertEquals(List.of(1), levels(t));
        assertTrue(FlushPicker.pickMemoryTriggered(MemoryScenario.parse("M1:\nM2:"), null, Set.of()).isEmpty());
        assertTrue(FlushPicker.pickMemoryTriggered(List.of(), null, Set.of()).isEmpty());
    }

    @Test
    void logTriggeredFromTheLastLevelTakesOneTableAndLeavesNewerOverlapsInMemory() {
        var levels = MemoryScenario.parse("""
                M1: a-c:10@50 d-f:10@60
                M2: a-m:10@40
                M3: a-b:10@30 c-d:10@5 e-z:10@20
                """);
        MemoryFlushTask t = FlushPicker.pickLogTriggered(levels, Set.of()).orElseThrow();
        assertEquals(Kind.LOG_TRIGGERED, t.kind());
        assertEquals(List.of(5L), ids(t));
    }

    @Test
    void logTriggeredFromAShallowLevelTakesTheOlderOverlappingTablesBelowItTransitively() {
        // The oldest LSN is in M1's d-f. Below it, M2's c-e and e-h overlap it; M3's g-k overlaps
        // e-h (not d-f itself) and must go too. M1's a-c (newer, overlapping c-e) stays; M2's x-y and
        // M3's a-b and m-n overlap nothing taken.
        var levels = MemoryScenario.parse("""
                M1: a-c:10@50 d-f:10@1
                M2: c-e:10@20 e-h:10@30 x-y:10@10
                M3: a-b:10@15 g-k:10@12 m-n:10@11
                """);
        MemoryFlushTask t = FlushPicker.pickLogTriggered(levels, Set.of()).orElseThrow();
        assertEquals(List.of(2L, 3L, 4L, 7L), ids(t));
        assertEquals(List.of(1, 2, 3), levels(t), "newest level first");
        assertEquals(40, t.bytes());
        assertTrue(FlushPicker.pickLogTriggered(levels, Set.of(7L)).isEmpty(), "a table to take is busy: wait");
        assertFalse(FlushPicker.pickLogTriggered(levels, Set.of(1L, 5L, 6L, 8L)).isEmpty(), "busy tables not taken do not matter");
    }

    @Test
    void logTriggeredTiesGoToTheDeeperOlderTable() {
        var levels = MemoryScenario.parse("""
                M1: a-c:10@7
                M2: x-z:10@7
                """);
        assertEquals(List.of(2L), ids(FlushPicker.pickLogTriggered(levels, Set.of()).orElseThrow()));
        assertTrue(FlushPicker.pickLogTriggered(MemoryScenario.parse("M1:"), Set.of()).isEmpty());
    }

    @Test
    void fullFlushTakesEverythingNewestLevelFirst() {
        var levels = MemoryScenario.parse("""
                M1: a-c:10 d-f:10
                M2:
                M3: a-z:100
                """);
        MemoryFlushTask t = FlushPicker.pickFull(levels, Set.of()).orElseThrow();
        assertEquals(Kind.FULL, t.kind());
        assertEquals(List.of(1L, 2L, 3L), ids(t));
        assertEquals(List.of(1, 3), levels(t));
        assertTrue(FlushPicker.pickFull(levels, Set.of(3L)).isEmpty());
        assertTrue(FlushPicker.pickFull(MemoryScenario.parse("M1:\nM2:"), Set.of()).isEmpty());
    }

    @Test
    void theBetaRuleChoosesFullFlushesWhenLittleWasFlushedPartially() {
        assertTrue(FlushPicker.preferFullFlush(40, 100, 0.5));
        assertFalse(FlushPicker.preferFullFlush(50, 100, 0.5));
        assertFalse(FlushPicker.preferFullFlush(0, 100, 0.0));
    }
}
