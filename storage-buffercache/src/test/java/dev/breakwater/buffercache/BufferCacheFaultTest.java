package dev.breakwater.buffercache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.io.FaultInjectingFileSystem;
import dev.breakwater.common.io.FileOperation;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Failed reads and corrupt pages surface as exceptions and never leave bad data in a frame. */
class BufferCacheFaultTest {

    private static final int PAGE = 4096;
    private final Path path = Path.of("/db/sst-1");

    @Test
    void failedReadThrowsAndTheNextPinRetriesTheRead() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        TestPages.writeFile(mem, path, 3, 8, PAGE);
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
        try (StorageFile file = fs.open(path, OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 4L * PAGE).withChunkBytes(PAGE), new IoStatistics())) {
            int id = cache.registerFile(file, path.toString());
            fs.setInjector((op, p) -> op == FileOperation.READ ? new IOException("injected read failure on " + p) : null);
            IOException e = assertThrows(IOException.class, () -> cache.pin(id, 5, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains("injected"), e.getMessage());
            assertFalse(cache.isCached(id, 5), "no frame holds the page after a failed read");
            assertEquals(0, cache.snapshot().pinnedFrames());

            fs.clearInjector();
            CachedPage page = cache.pin(id, 5, IoPurpose.QUERY);
            TestPages.check(page, 3, 5, new OffHeapPage());
            cache.unpin(page);
        }
    }

    @Test
    void checksumMismatchNamesFilePageAndBothChecksums() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        TestPages.writeFile(fs, path, 4, 8, PAGE);
        // Flip one payload byte of page 6.
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            f.read(6L * PAGE + 100, one);
            one.flip();
            one.put(0, (byte) (one.get(0) ^ 0x10));
            f.write(6L * PAGE + 100, one);
        }
        try (StorageFile file = fs.open(path, OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 4L * PAGE).withChunkBytes(PAGE), new IoStatistics())) {
            int id = cache.registerFile(file, path.toString());
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> cache.pin(id, 6, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains("/db/sst-1"), e.getMessage());
            assertTrue(e.getMessage().contains("page 6"), e.getMessage());
            assertTrue(e.getMessage().matches(".*expected 0x[0-9a-f]{8}.*actual 0x[0-9a-f]{8}.*"), e.getMessage());
            assertEquals(6, e.pageNumber());
            assertFalse(cache.isCached(id, 6));
            // A second attempt reads again and fails again: nothing bad was cached.
            assertThrows(CorruptPageException.class, () -> cache.pin(id, 6, IoPurpose.QUERY));
            // Other pages are fine.
            CachedPage ok = cache.pin(id, 5, IoPurpose.QUERY);
            TestPages.check(ok, 4, 5, new OffHeapPage());
            cache.unpin(ok);
        }
    }

    @Test
    void pageWrittenAtTheWrongPlaceIsDetected() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        TestPages.writeFile(fs, path, 5, 8, PAGE);
        try (StorageFile f = fs.open(path, OpenOption.WRITE)) {
            f.write(2L * PAGE, TestPages.page(5, 3, PAGE)); // page 3's bytes at page 2's place
        }
        try (StorageFile file = fs.open(path, OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 4L * PAGE).withChunkBytes(PAGE), new IoStatistics())) {
            int id = cache.registerFile(file, path.toString());
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> cache.pin(id, 2, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains("records number 3"), e.getMessage());
        }
    }

    @Test
    void unregisteredFilesAreRefusedAndIdsAreNeverReused() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        TestPages.writeFile(fs, path, 6, 4, PAGE);
        try (StorageFile file = fs.open(path, OpenOption.READ);
             BufferCache cache = new BufferCache(BufferCacheOptions.of(PAGE, 4L * PAGE).withChunkBytes(PAGE), new IoStatistics())) {
            int id = cache.registerFile(file, "a");
            cache.unpin(cache.pin(id, 1, IoPurpose.QUERY));
            cache.unregisterFile(id);
            assertFalse(cache.isCached(id, 1), "unpinned frames of an unregistered file are dropped");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cache.pin(id, 1, IoPurpose.QUERY));
            assertTrue(e.getMessage().contains("file id " + id), e.getMessage());
            int again = cache.registerFile(file, "a-again");
            assertTrue(again != id, "a new registration never reuses an id");
        }
    }
}
