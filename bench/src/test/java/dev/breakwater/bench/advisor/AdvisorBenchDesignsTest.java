package dev.breakwater.bench.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.tuner.advisor.Design;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --designs} names what {@code check} measures; {@code asRun} is what the engine runs. */
class AdvisorBenchDesignsTest {

    @Test
    void parsesSizeRatioRunsBitsAndBytes() {
        List<Design> d = AdvisorBench.parseDesigns("9/1/11/1114112, 10/3/0/1048576");
        assertEquals(Design.uniform(1114112, 11, 9, 1), d.get(0));
        assertEquals(Design.uniform(1048576, 0, 10, 3), d.get(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AdvisorBench.parseDesigns("9/1/11"));
        assertTrue(e.getMessage().contains("T/K/bits/bytes"), e.getMessage());
    }

    @Test
    void runsWriteMemoryIn64KiBStepsFromOneMiB() {
        assertEquals(1114112, AdvisorBench.asRun(Design.uniform(1095000, 11, 9, 1)).writeMemoryBytes());
        assertEquals(1L << 20, AdvisorBench.asRun(Design.uniform(1000, 11, 9, 1)).writeMemoryBytes());
    }
}
