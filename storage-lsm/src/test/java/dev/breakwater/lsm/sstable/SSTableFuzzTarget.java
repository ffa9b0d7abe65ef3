package dev.breakwater.lsm.sstable;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * The target of the SSTable fuzz tests: two valid SSTables (uncompressed and LZ4, several leaves,
 * an index page, a Bloom filter) in a {@link MemFileSystem}; a fuzz input replaces the
 * checksummed part of one chosen page from its flags byte on (flags, page number, payload length,
 * payload), the page checksum is resealed so the bytes reach the decoders, and the table is then
 * opened, probed with every 16th key it holds (a few per leaf) and scanned end to end.
 *
 * <p>Only the engine's documented exceptions for damaged files may come out
 * ({@link CorruptPageException}, {@link CorruptSSTableException}, other {@link IOException}s);
 * anything else propagates and is a finding.
 *
 * <p>Input layout: byte 0 bit 0 chooses the table (0 uncompressed, 1 LZ4); the rest is page bytes
 * from {@link PageDescriptor#FLAGS_OFFSET}. Thread safety: one fuzzing thread.
 */
final class SSTableFuzzTarget {

    static final int PAGE = 4096;
    private static final Path PLAIN = Path.of("/fuzz/plain.sst");
    private static final Path LZ4 = Path.of("/fuzz/lz4.sst");
    private static final Path TARGET = Path.of("/fuzz/target.sst");

    private final MemFileSystem fs = new MemFileSystem();
    private final IoStatistics io = new IoStatistics();
    private final BufferCache cache = new BufferCache(dev.breakwater.buffercache.BufferCacheOptions.of(PAGE, 64L * PAGE)
            .withChunkBytes(16 * PAGE), io);
    private final List<byte[]> keys = new ArrayList<>();
    private final SSTableMetadata plainMeta;
    private final SSTableMetadata lz4Meta;

    SSTableFuzzTarget() {
        try {
            fs.createDirectories(PLAIN.getParent());
            TreeMap<byte[], SSTableFixture.Entry> entries = SSTableFixture.randomEntries(new Random(11), 3_000, 24, 40);
            int i = 0;
            for (byte[] k : entries.keySet()) {
                if (i++ % 16 == 0) {
                    keys.add(k); // about 5 keys per leaf: every leaf is searched, each input stays cheap
                }
            }
            plainMeta = SSTableFixture.write(fs, PLAIN, SSTableOptions.defaults(PAGE).withCompression(Compression.NONE), io, entries);
            lz4Meta = SSTableFixture.write(fs, LZ4, SSTableOptions.defaults(PAGE).withCompression(Compression.LZ4), io, entries);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Metadata of the base table chosen by {@code lz4}. */
    SSTableMetadata meta(boolean lz4) {
        return lz4 ? lz4Meta : plainMeta;
    }

    /** The fuzz input that reproduces page {@code pageNo} of a base table unchanged (a seed). */
    byte[] seed(boolean lz4, int pageNo) throws IOException {
        byte[] page = readPage(lz4 ? LZ4 : PLAIN, pageNo);
        byte[] input = new byte[1 + PAGE - PageDescriptor.FLAGS_OFFSET];
        input[0] = (byte) (lz4 ? 1 : 0);
        System.arraycopy(page, PageDescriptor.FLAGS_OFFSET, input, 1, input.length - 1);
        return input;
    }

    /**
     * Runs one input against the page {@code pageOf} picks in the chosen table's metadata.
     *
     * @throws IOException only the clean, documented kinds
     */
    void run(byte[] data, ToIntFunction<SSTableMetadata> pageOf) throws IOException {
        if (data.length < 1) {
            return;
        }
        boolean lz4 = (data[0] & 1) != 0;
        SSTableMetadata m = meta(lz4);
        int pageNo = pageOf.applyAsInt(m);
        byte[] file = readFile(lz4 ? LZ4 : PLAIN);
        int base = pageNo * PAGE;
        byte type = file[base + PageDescriptor.TYPE_OFFSET];
        int n = Math.min(data.length - 1, PAGE - PageDescriptor.FLAGS_OFFSET);
        System.arraycopy(data, 1, file, base + PageDescriptor.FLAGS_OFFSET, n);
        java.util.Arrays.fill(file, base + PageDescriptor.FLAGS_OFFSET + n, base + PAGE, (byte) 0);
        file[base + PageDescriptor.TYPE_OFFSET] = type;
        ByteBuffer page = ByteBuffer.wrap(file, base, PAGE).slice();
        PageChecksum.seal(page, PAGE);
        fs.delete(TARGET);
        try (StorageFile f = fs.open(TARGET, OpenOption.CREATE, OpenOption.WRITE)) {
            f.write(0, ByteBuffer.wrap(file));
        }
        exercise();
    }

    private void exercise() throws IOException {
        try (SSTableReader r = SSTableReader.open(fs, TARGET, cache, false, IoPurpose.QUERY)) {
            ValueHolder out = new ValueHolder();
            for (byte[] k : keys) {
                r.get(k, k.length, out, IoPurpose.QUERY);
            }
            byte[] middle = keys.get(keys.size() / 2);
            // Reverse cursors walk the leaves backward: damage must surface there as IOException
            // too. Caught here (it is the documented failure) so the forward scans below still run.
            try (EntryCursor c = r.reverseCursor(null, 0, IoPurpose.QUERY)) {
                while (c.next()) {
                    c.key();
                }
            } catch (IOException documented) {
                // allowed
            }
            try (EntryCursor c = r.reverseCursor(middle, middle.length, IoPurpose.QUERY)) {
                c.next();
            } catch (IOException documented) {
                // allowed
            }
            try (EntryCursor c = r.cursor(null, 0, IoPurpose.QUERY)) {
                while (c.next()) {
                    c.key();
                }
            }
            try (EntryCursor c = r.cursor(middle, middle.length, IoPurpose.QUERY)) {
                c.next();
            }
        }
    }

    private byte[] readFile(Path path) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) f.size());
            f.read(0, b);
            return b.array();
        }
    }

    private byte[] readPage(Path path, int pageNo) throws IOException {
        byte[] file = readFile(path);
        return java.util.Arrays.copyOfRange(file, pageNo * PAGE, (pageNo + 1) * PAGE);
    }
}
