package dev.breakwater.bench.buffercache;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Writes files of valid pages for the buffer-cache benchmarks: every page carries the
 * {@link PageDescriptor} header with its own page number, a payload of 8-byte words derived from the
 * page number, and a {@link PageChecksum#seal seal}, so the cache's verification on a miss accepts it
 * and costs what it costs for real pages (a CRC32C over the whole page).
 *
 * <p>Pages are written in batches of {@link #BATCH_PAGES} through one direct buffer, then the file is
 * synced, so a later O_DIRECT read finds the data on disk rather than in dirty page-cache pages.
 *
 * <p>Thread safety: stateless; safe.
 */
final class PageFiles {

    /** Page type byte of benchmark pages (no reader interprets it). */
    static final byte TYPE = 7;
    /** Pages written per write call: 64 pages of 16 KiB is 1 MiB. */
    static final int BATCH_PAGES = 64;

    private PageFiles() {
    }

    /** The payload word at {@code index} of page {@code pageNo}. */
    static long word(int pageNo, int index) {
        return ((long) pageNo << 32) ^ index * 0x9E3779B97F4A7C15L;
    }

    /**
     * Creates (or truncates) {@code path} holding {@code pages} sealed pages of {@code pageSize} bytes
     * numbered from 0, and syncs it.
     */
    static void write(FileSystem fs, Path path, int pages, int pageSize) throws IOException {
        ByteBuffer batch = ByteBuffer.allocateDirect(BATCH_PAGES * pageSize + 4096)
                .alignedSlice(4096).order(ByteOrder.LITTLE_ENDIAN);
        int words = PageDescriptor.maxPayload(pageSize) / 8;
        try (StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            for (int first = 0; first < pages; first += BATCH_PAGES) {
                int n = Math.min(BATCH_PAGES, pages - first);
                for (int i = 0; i < n; i++) {
                    int pageNo = first + i;
                    ByteBuffer page = batch.slice(i * pageSize, pageSize).order(ByteOrder.LITTLE_ENDIAN);
                    PageDescriptor.writeHeader(page, TYPE, (byte) 0, pageNo, words * 8);
                    for (int w = 0; w < words; w++) {
                        page.putLong(PageDescriptor.HEADER_LENGTH + w * 8, word(pageNo, w));
                    }
                    PageChecksum.seal(page, pageSize);
                }
                batch.limit(n * pageSize).position(0);
                f.write((long) first * pageSize, batch);
                batch.clear();
            }
            f.sync();
        }
    }

    /** A fresh directory for benchmark files under {@code breakwater.bench.dir} (default: java.io.tmpdir). */
    static Path newDirectory(String prefix) throws IOException {
        Path parent = Path.of(System.getProperty("breakwater.bench.dir", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(parent);
        return Files.createTempDirectory(parent, prefix);
    }

    /** Frees what a benchmark's set-up created: the cache, the file, then the directory (any may be null). */
    static void release(BufferCache cache, StorageFile file, Path dir) throws IOException {
        if (cache != null) {
            cache.close();
        }
        if (file != null) {
            file.close();
        }
        deleteRecursively(dir);
    }

    /** Deletes {@code dir} and everything in it; null is ignored. */
    static void deleteRecursively(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
