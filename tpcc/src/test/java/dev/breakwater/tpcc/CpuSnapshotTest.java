package dev.breakwater.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CpuSnapshotTest {

    @Test
    void threadsCountInTheirGroupByNamePrefix() {
        assertEquals("terminals", CpuSnapshot.groupOf("terminal-3"));
        assertEquals("merge", CpuSnapshot.groupOf("breakwater-merge-0"));
        // "breakwater-memory-merge" is not "breakwater-merge": the memory merges are their own group
        assertEquals("memoryMerge", CpuSnapshot.groupOf("breakwater-memory-merge-1"));
        assertEquals("logFlusher", CpuSnapshot.groupOf("breakwater-log-flusher"));
        assertNull(CpuSnapshot.groupOf("main"));
    }

    @Test
    void perTransactionIsTheDifferenceOverTheCommittedCount() {
        CpuSnapshot before = new CpuSnapshot(1_000_000, 0, Map.of("merge", 500_000L));
        CpuSnapshot after = new CpuSnapshot(5_000_000, 2_000_000, Map.of("merge", 2_500_000L, "flush", 100_000L));
        Map<String, Double> perTx = after.microsPerTransaction(before, 1000);
        assertEquals(4.0, perTx.get("process"), 1e-9); // 4 ms over 1000 transactions
        assertEquals(2.0, perTx.get("gc"), 1e-9);
        assertEquals(2.0, perTx.get("merge"), 1e-9);
        assertEquals(0.1, perTx.get("flush"), 1e-9); // a group absent before counts from zero
    }

    @Test
    void aThreadBurningCpuShowsInItsGroup() throws Exception {
        CpuSnapshot before = CpuSnapshot.take();
        AtomicReference<Map<String, Double>> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            long end = System.nanoTime() + 200_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += Long.numberOfTrailingZeros(x + System.nanoTime());
            }
            // taken while the thread is alive: a finished thread's time is gone from the JVM
            seen.set(CpuSnapshot.take().microsPerTransaction(before, x < 0 ? 2 : 1));
        }, "breakwater-merge-test");
        t.start();
        t.join();
        // 200 ms of wall time spinning; at least a tenth of it on a CPU even on a loaded machine (process
        // CPU time is not compared here: Linux counts it in 10 ms ticks)
        assertTrue(seen.get().get("merge") > 20_000, "CPU of a merge-named thread: " + seen.get());
    }
}
