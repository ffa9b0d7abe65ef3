package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.Version;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Picker scenarios for tiering. */
class TieringPickerTest {

    private final TieringPicker picker = new TieringPicker();
    private final MergeSettings settings = new MergeSettings(3, 2, 100, 1000);

    @Test
    void fullL0MergesAllItsRunsIntoANewRunOfL1() {
        Version v = Scenario.parse("""
                L0: a-c:10 | b-d:10
                L1: a-z:100
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(2, t.inputs().size());
        assertEquals(1, t.outputLevel());
        assertEquals(MergeTask.NEW_RUN, t.outputRunId());
        assertFalse(t.dropTombstones(), "L1 already holds an older run");
    }

    @Test
    void levelBelowTriggerWaitsAndBusyRunsBlock() {
        assertTrue(picker.pick(Scenario.parse("L0: a-c:10\nL1: a-z:1 | a-z:1"), Set.of(), settings).isEmpty());
        Version v = Scenario.parse("L0: a-c:10 | b-d:10\nL1:");
        assertTrue(picker.pick(v, Set.of(2L), settings).isEmpty());
    }

    @Test
    void mergingTheLastLevelIntoANewLevelDropsTombstones() {
        Version v = Scenario.parse("""
                L0:
                L1: a-z:1 | a-z:1 | a-z:1
                """);
        MergeTask t = picker.pick(v, Set.of(), settings).orElseThrow();
        assertEquals(2, t.outputLevel(), "a new last level");
        assertTrue(t.dropTombstones());
        assertEquals(3, t.allTables().size());
    }
}
