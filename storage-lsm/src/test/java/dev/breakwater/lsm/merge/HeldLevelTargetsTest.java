package dev.breakwater.lsm.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.version.Version;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Level targets held at the shape a tree had when its write-memory share became a guess
 * ({@link MergeSettings#levelTargetFloor}, issue 13, tenth session): the guess merges no level that
 * has not grown since, L0's triggers are not held, and a level that grew merges as usual.
 */
class HeldLevelTargetsTest {

    /** Written with a share of 100: L1 at 600 against L2's 5,000 fits (equal ratios: target sqrt(100 * 5,000) = 707). */
    private static final String SHAPE = """
            L0:
            L1: a-f:300 g-z:300
            L2: a-z:5000
            """;
    /** The registration guess: target(L1) = sqrt(50 * 5,000) = 500 < 600. */
    private static final MergeSettings GUESS = new MergeSettings(10, 2, 50, 1_000);

    private static long[] shape(Version v) {
        long[] bytes = new long[v.levelCount()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = v.levelBytes(i);
        }
        return bytes;
    }

    @Test
    void theGuessMergesNoLevelThatHasNotGrown() {
        Version v = Scenario.parse(SHAPE);
        LevelingPicker picker = new LevelingPicker();
        Optional<MergeTask> unheld = picker.pick(v, Set.of(), GUESS);
        assertTrue(unheld.isPresent() && unheld.get().outputLevel() == 2, "the guess alone merges L1 into L2: " + unheld);
        assertEquals(Optional.empty(), picker.pick(v, Set.of(), GUESS.withHeldLevels(shape(v))));
        assertEquals(601, GUESS.withHeldLevels(shape(v)).levelTargetFloor(1, 3));
        assertEquals(0, GUESS.withHeldLevels(shape(v)).levelTargetFloor(0, 3), "L0 is never held");
        assertEquals(0, GUESS.withHeldLevels(shape(v)).levelTargetFloor(1, 4), "a renumbered tree holds nothing");
    }

    @Test
    void l0MergesWhileLevelsAreHeld() {
        Version v = Scenario.parse("""
                L0: a-z:10 | a-z:10
                L1: a-f:300 g-z:300
                L2: a-z:5000
                """);
        long[] held = shape(Scenario.parse(SHAPE));
        MergeTask t = new LevelingPicker().pick(v, Set.of(), GUESS.withHeldLevels(held)).orElseThrow();
        assertEquals(1, t.outputLevel(), "L0 is due at 2 groups whatever is held: " + t);
        GarneringPicker garnering = new GarneringPicker(0.5);
        assertEquals(1, garnering.pick(v, Set.of(), GUESS.withHeldLevels(held)).orElseThrow().outputLevel(), "and for Garnering");
        // Held with these very groups in L0: the group count is never held.
        assertEquals(1, new LevelingPicker().pick(v, Set.of(), GUESS.withHeldLevels(shape(v))).orElseThrow().outputLevel());
    }

    @Test
    void anL0ThatHasNotGrownIsNotDueByBytesOnTheGuessAlone() {
        // One group of 150 B: under the real share of 100 not due by bytes (2 * 100), under the guess of 50 it is (2 * 50).
        Version atOpen = Scenario.parse("""
                L0: a-m:150
                L1: a-f:300 g-z:300
                L2: a-z:5000
                """);
        LevelingPicker picker = new LevelingPicker();
        MergeTask unheld = picker.pick(atOpen, Set.of(), GUESS).orElseThrow();
        assertEquals(1, unheld.outputLevel(), "precondition: the guess makes L0 due by bytes: " + unheld);
        MergeSettings held = GUESS.withHeldLevels(shape(atOpen));
        assertEquals(151, held.l0VolumeFloor());
        assertEquals(Optional.empty(), picker.pick(atOpen, Set.of(), held));
        assertEquals(Optional.empty(), new GarneringPicker(0.5).pick(atOpen, Set.of(), held), "nor for Garnering");
        // One flush later L0 has grown: due by bytes as the share says.
        Version flushed = Scenario.parse("""
                L0: a-m:150 n-z:1
                L1: a-f:300 g-z:300
                L2: a-z:5000
                """);
        assertEquals(1, picker.pick(flushed, Set.of(), held).orElseThrow().outputLevel());
    }

    @Test
    void aLevelThatGrewPastItsHeldSizeMerges() {
        long[] held = shape(Scenario.parse(SHAPE));
        Version grown = Scenario.parse("""
                L0:
                L1: a-f:300 g-z:400
                L2: a-z:5000
                """);
        MergeTask t = new LevelingPicker().pick(grown, Set.of(), GUESS.withHeldLevels(held)).orElseThrow();
        assertEquals(2, t.outputLevel(), "L1 grew by an L0 merge: over its held size and the guess's target: " + t);
    }

    @Test
    void garneringAndRunsPerLevelHoldTheirCapacitiesToo() {
        // Written with a share of 20 (Garnering, c = 1: C_1 = 80 > |L1|; runs per level: C_1 = 60 >= 60);
        // the guess of 10 makes C_1 = 40 (Garnering; the data, 140, is under C_2 = 160, so C_1 is the
        // capacity) and 30 (runs per level).
        Version v = Scenario.parse("""
                L0:
                L1: a-z:60
                L2: a-z:80
                """);
        MergeSettings guess = new MergeSettings(4, 2, 10, 1_000);
        GarneringPicker garnering = new GarneringPicker(1.0);
        assertTrue(garnering.pick(v, Set.of(), guess).isPresent(), "precondition: the guess puts Garnering's L1 over capacity");
        assertEquals(Optional.empty(), garnering.pick(v, Set.of(), guess.withHeldLevels(shape(v))));
        RunsPerLevelPicker runs = new RunsPerLevelPicker(1);
        assertTrue(runs.pick(v, Set.of(), guess).isPresent(), "precondition: the guess fills a level of K runs");
        assertEquals(Optional.empty(), runs.pick(v, Set.of(), guess.withHeldLevels(shape(v))));
    }
}
