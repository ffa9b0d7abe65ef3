package dev.breakwater.bench.membuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the paper-001 figure driver and the JMH benchmark bodies on tiny sizes: every kind and
 * configuration produces a row, lookups find their keys (the driver throws otherwise), the plots are
 * written, and the benchmark operations run. No timing is asserted.
 */
class MemoryBufferFiguresSmokeTest {

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void everyFigureProducesARowPerKindAndAPlot() throws Exception {
        Map<String, Object> fig1 = MemoryBufferFigures.fig1(2_000);
        assertEquals(BufferKind.values().length * 3, ((List<?>) fig1.get("runs")).size());
        MemoryBufferPlots.fig1(fig1, tmp);
        Map<String, Object> fig4 = MemoryBufferFigures.fig4(2_000, 20);
        assertEquals(BufferKind.values().length, ((List<?>) fig4.get("runs")).size());
        MemoryBufferPlots.fig4(fig4, tmp);
        Map<String, Object> fig6 = MemoryBufferFigures.fig6(20_000, tmp.resolve("e2e"));
        List<Map<String, Object>> runs = (List<Map<String, Object>>) fig6.get("runs");
        assertEquals(7, runs.size());
        for (Map<String, Object> r : runs) {
            assertTrue(((Number) r.get("bytesFlushed")).longValue() > 0, r.toString());
        }
        MemoryBufferPlots.fig6(fig6, tmp);
        for (String png : List.of("fig1.png", "fig4.png", "fig6.png")) {
            assertTrue(Files.size(tmp.resolve(png)) > 0, png);
        }
    }

    @Test
    void benchmarkBodiesRun() throws Exception {
        // Two kinds keep it short; the driver test above runs every kind through the same calls.
        for (BufferKind kind : new BufferKind[] {BufferKind.VECTOR, BufferKind.HASH_LINKED_LIST}) {
            MemoryBufferBenchmark b = new MemoryBufferBenchmark();
            b.kind = kind.name();
            b.prefix = 4;
            b.buckets = 64;
            b.setUp();
            try {
                MemoryBufferBenchmark.Fresh f = new MemoryBufferBenchmark.Fresh();
                f.create(b);
                assertEquals(MemoryBufferBenchmark.ENTRIES, b.insert(f));
                f.close();
                for (int i = 0; i < 10; i++) {
                    assertEquals(dev.breakwater.lsm.LookupResult.FOUND, b.pointGet());
                    assertTrue(b.shortScan() > 0);
                }
                assertTrue(b.longScan() > 0);
            } finally {
                b.tearDown();
            }
        }
    }
}
