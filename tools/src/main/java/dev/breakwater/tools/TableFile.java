package dev.breakwater.tools;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.sstable.SSTableFormat;
import dev.breakwater.lsm.sstable.SSTableReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Opens SSTables for the tool, read-only, through the engine's own {@link SSTableReader}, each
 * over a small buffer cache of this object's (so footer, page and checksum checks are the
 * engine's). The page size, which the engine takes from its configuration, is found from the file:
 * the power of two (4 KiB to 1 MiB) whose last page is a footer page that passes its checksum.
 *
 * <p>Thread safety: not thread-safe; one command uses it.
 */
final class TableFile implements AutoCloseable {

    private static final int MIN_PAGE = 4096;
    private static final int MAX_PAGE = 1 << 20;
    /** Frames per cache: readers pin one page at a time; a few frames keep a lookup's path warm. */
    private static final int FRAMES = 64;

    private final FileSystem fs;
    /** One cache per page size met (an engine's files all share one). */
    private final Map<Integer, BufferCache> caches = new HashMap<>();

    TableFile(FileSystem fs) {
        this.fs = fs;
    }

    /**
     * The page size of the SSTable at {@code path}, or -1 if no candidate size ends the file with a
     * footer page that verifies.
     */
    int detectPageSize(Path path) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            long size = f.size();
            for (int ps = MIN_PAGE; ps <= MAX_PAGE; ps <<= 1) {
                if (size < 2L * ps || size % ps != 0) {
                    continue;
                }
                ByteBuffer page = ByteBuffer.allocate(ps);
                long pageNo = size / ps - 1;
                f.read(pageNo * ps, page);
                page.clear();
                if (PageDescriptor.type(page) != SSTableFormat.TYPE_FOOTER) {
                    continue;
                }
                try {
                    PageChecksum.verify(page, ps, path.toString(), pageNo);
                    return ps;
                } catch (CorruptPageException e) {
                    // not this size
                }
            }
            return -1;
        }
    }

    /**
     * Opens the SSTable at {@code path} with {@code pageSize}-byte pages.
     *
     * @throws dev.breakwater.lsm.sstable.CorruptSSTableException if the footer disagrees with the file
     * @throws CorruptPageException if the footer page fails verification
     */
    SSTableReader open(Path path, int pageSize) throws IOException {
        BufferCache cache = caches.computeIfAbsent(pageSize, ps -> new BufferCache(BufferCacheOptions.of(ps, (long) FRAMES * ps)
                .withSimulatedCache(0, 1).withChunkBytes((long) FRAMES * ps), new IoStatistics()));
        return SSTableReader.open(fs, path, cache, false, IoPurpose.QUERY);
    }

    /** Closes the caches. Requires: every reader opened here is closed. */
    @Override
    public void close() {
        caches.values().forEach(BufferCache::close);
        caches.clear();
    }
}
