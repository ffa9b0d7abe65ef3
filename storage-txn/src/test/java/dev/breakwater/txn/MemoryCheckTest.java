package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.memory.OffHeapMemory;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Memory settings are checked against the machine before anything is allocated (issue 11 item 10).
 * Before: {@code total-memory: 1t} allocated buffer-cache chunks for 46 s, then threw
 * OutOfMemoryError and leaked what it had allocated.
 */
class MemoryCheckTest {

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName).collect(Collectors.toSet());
    }

    @Test
    void anAbsurdTotalMemoryFailsAtOnceNamingTheOptionAndTheMachinesMemory() {
        StorageConfig absurd = StorageConfig.builder().set(ConfigOptions.TOTAL_MEMORY, 1L << 40).set(ConfigOptions.DIRECT_IO, false).build();
        MemFileSystem fs = new MemFileSystem();
        long offHeap = OffHeapMemory.reservedBytes();
        long arenas = OffHeapMemory.liveArenas();
        Set<String> threads = threadNames();
        long start = System.nanoTime();
        StorageException e = assertThrows(StorageException.class, () -> StorageEngine.open(fs, Path.of("/data"), absurd));
        System.out.printf("open with total-memory 1t failed after %.1f ms: %s%n", (System.nanoTime() - start) / 1e6, e.getMessage());
        assertTrue(e.getMessage().startsWith("total-memory is 1024.0 GiB (1099511627776 bytes) but this machine has "), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(MemoryCheck.physicalMemory())), e.getMessage());
        assertEquals(offHeap, OffHeapMemory.reservedBytes(), "no off-heap bytes reserved or leaked");
        assertEquals(arenas, OffHeapMemory.liveArenas());
        Set<String> after = threadNames();
        after.removeAll(threads);
        assertTrue(after.isEmpty(), "no threads started or leaked: " + after);
        assertFalse(fs.exists(Path.of("/data")), "nothing created");
    }

    @Test
    void aTotalMemoryOverTheDirectMemoryLimitNamesTheJvmFlag() {
        StorageException e = assertThrows(StorageException.class, () -> MemoryCheck.check(512L << 20, 24L << 30, 256L << 20, 10L << 20));
        assertTrue(e.getMessage().contains("total-memory is 512.0 MiB"), e.getMessage());
        assertTrue(e.getMessage().contains("only 246.0 MiB (257949696 bytes) more direct (off-heap) memory"), e.getMessage());
        assertTrue(e.getMessage().contains("-XX:MaxDirectMemorySize"), e.getMessage());
        MemoryCheck.check(200L << 20, 24L << 30, 256L << 20, 10L << 20); // fits
        MemoryCheck.check(200L << 20, -1, -1, 0); // unknown limits are not checked
    }

    @Test
    void theLimitsThisJvmRunsWithAreRead() {
        // Surefire runs tests with -XX:MaxDirectMemorySize=4g (see the parent pom).
        assertEquals(4L << 30, MemoryCheck.maxDirectMemory());
        assertTrue(MemoryCheck.physicalMemory() > 0);
        assertTrue(MemoryCheck.directMemoryInUse() >= 0);
    }
}
