package dev.breakwater.common.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IoStatisticsTest {

    @Test
    void countsByPurposeFromManyThreadsAndSnapshotsSubtract() throws InterruptedException {
        IoStatistics stats = new IoStatistics();
        stats.recordRead(IoPurpose.QUERY, 1, 4096);
        IoStatisticsSnapshot before = stats.snapshot();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    stats.recordRead(IoPurpose.MERGE, 2, 8192);
                    stats.recordWrite(IoPurpose.FLUSH, 1, 100);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        IoStatisticsSnapshot delta = stats.snapshot().minus(before);
        assertEquals(80_000, delta.pagesRead(IoPurpose.MERGE));
        assertEquals(40_000L * 8192, delta.bytesRead(IoPurpose.MERGE));
        assertEquals(40_000, delta.pagesWritten(IoPurpose.FLUSH));
        assertEquals(4_000_000, delta.bytesWritten(IoPurpose.FLUSH));
        assertEquals(0, delta.pagesRead(IoPurpose.QUERY), "counted before the first snapshot");
        assertEquals(1, stats.snapshot().pagesRead(IoPurpose.QUERY));
        assertEquals(4_000_000, delta.totalBytesWritten());
        assertEquals(IoPurpose.COUNT, delta.asMap().size());
    }
}
