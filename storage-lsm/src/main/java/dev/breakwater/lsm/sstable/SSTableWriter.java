package dev.breakwater.lsm.sstable;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import java.util.Arrays;

/**
 * Bulk loads an SSTable file (docs/formats.md) from entries given in strictly increasing key order:
 * the immutable disk component of an LSM-tree, written by a flush or a merge.
 *
 * <p>Leaf pages are written as they fill, in batches of {@link SSTableOptions#writeBatchPages()}
 * pages per sequential write. {@link #finish} then writes the index levels bottom-up, the Bloom
 * filter pages and the footer, and fsyncs the file. Page and byte counts go to the
 * {@link IoStatistics} under the purpose given at creation (FLUSH or MERGE).
 *
 * <p>Durability: {@link #finish} syncs the file's contents. Making its directory entry durable
 * ({@link FileSystem#syncDirectory}) is the caller's job, normally done once for all files a flush
 * or merge created, before the manifest edit that makes them visible.
 *
 * <p>Lifecycle: OPEN → ({@link #finish}) FINISHED, or → ({@link #abort}) ABORTED. A failed
 * {@link #add} or {@link #finish} leaves the writer FAILED: the caller must {@link #abort}.
 *
 * <p>Invariants: (1) keys reach the leaf builder in strictly increasing unsigned order; (2) every
 * accepted record fits one leaf page uncompressed and every key fits the footer and an index page
 * twice; (3) leaves are pages {@code [0, L)}, written before any other page.
 *
 * <p>Thread safety: not thread-safe; one thread drives a writer.
 */
public final class SSTableWriter implements AutoCloseable {

    private enum State { OPEN, FAILED, FINISHED, ABORTED }

    private final FileSystem fs;
    private final Path path;
    private final SSTableOptions options;
    private final StorageFile file;
    private final PageBatchWriter pages;
    private final LeafBuilder leaves;
    private final IndexBuilder index;
    private final BloomFilterBuilder bloom;
    private final int maxKeyLength;
    private final int maxRecordLength;
    /** SSTable format version written: {@link SSTableFormat#CURRENT_VERSION} except in tests of the legacy reader. */
    private final int formatVersion;
    private byte[] firstKey;
    private byte[] lastKey = new byte[64];
    private int lastKeyLength = -1;
    private long entryCount;
    private long tombstoneCount;
    private State state = State.OPEN;

    private static final LongConsumer NO_SINK = bytes -> { };

    private SSTableWriter(FileSystem fs, Path path, SSTableOptions options, StorageFile file, IoStatistics io, IoPurpose purpose,
                          LongConsumer written, int formatVersion) {
        this.fs = fs;
        this.formatVersion = formatVersion;
        this.path = path;
        this.options = options;
        this.file = file;
        this.pages = new PageBatchWriter(file, options.pageSize(), options.writeBatchPages(), io, purpose, written);
        this.index = new IndexBuilder(options.pageSize());
        this.leaves = new LeafBuilder(options.pageSize(), options.compression(), this::writeLeaf, formatVersion);
        this.bloom = new BloomFilterBuilder(options.bloomBitsPerKey());
        this.maxKeyLength = SSTableFormat.maxKeyLength(options.pageSize());
        this.maxRecordLength = SSTableFormat.maxRecordLength(options.pageSize());
    }

    /**
     * Creates a new SSTable file at {@code path}, which must not exist.
     *
     * @param purpose what the writes are counted as: {@link IoPurpose#FLUSH} or {@link IoPurpose#MERGE}
     */
    public static SSTableWriter create(FileSystem fs, Path path, SSTableOptions options, IoStatistics io, IoPurpose purpose)
            throws IOException {
        return create(fs, path, options, io, purpose, NO_SINK);
    }

    /**
     * Like {@link #create(FileSystem, Path, SSTableOptions, IoStatistics, IoPurpose)}, also telling
     * {@code written} the bytes of each page batch as it reaches the file (the footer's included),
     * so the sum it sees is the file's size once finished.
     */
    public static SSTableWriter create(FileSystem fs, Path path, SSTableOptions options, IoStatistics io, IoPurpose purpose,
                                       LongConsumer written) throws IOException {
        return create(fs, path, options, io, purpose, written, SSTableFormat.CURRENT_VERSION);
    }

    /**
     * Like {@link #create(FileSystem, Path, SSTableOptions, IoStatistics, IoPurpose)} in SSTable
     * format {@code formatVersion}: for tests that write {@link SSTableFormat#LEGACY_VERSION_1}
     * files to check that this build still reads them. The engine writes only the current version.
     */
    static SSTableWriter createWithFormatVersion(FileSystem fs, Path path, SSTableOptions options, IoStatistics io,
                                                 IoPurpose purpose, int formatVersion) throws IOException {
        return create(fs, path, options, io, purpose, NO_SINK, formatVersion);
    }

    private static SSTableWriter create(FileSystem fs, Path path, SSTableOptions options, IoStatistics io, IoPurpose purpose,
                                        LongConsumer written, int formatVersion) throws IOException {
        StorageFile file = options.directIo()
                ? fs.open(path, OpenOption.CREATE_NEW, OpenOption.WRITE, OpenOption.DIRECT)
                : fs.open(path, OpenOption.CREATE_NEW, OpenOption.WRITE);
        try {
            return new SSTableWriter(fs, path, options, file, io, purpose, written, formatVersion);
        } catch (RuntimeException e) {
            file.close();
            fs.delete(path);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** Entries added so far. */
    public long entryCount() {
        return entryCount;
    }

    /** Bytes of leaf pages written or buffered so far: a lower bound of the final file size. */
    public long leafBytes() {
        return (long) pages.nextPage() * options.pageSize();
    }

    /**
     * Appends an entry. {@code key[0, keyLen)} must be greater than the previous key (unsigned
     * lexicographic order). A tombstone's value is ignored (stored empty).
     *
     * @throws IllegalArgumentException if the key is not greater than the previous one, or the key or
     *                                  record is larger than a page allows (the message names both)
     */
    public void add(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone) throws IOException {
        requireState(State.OPEN, "add");
        int storedValueLen = tombstone ? 0 : valueLen;
        if (keyLen < 0 || keyLen > key.length || storedValueLen < 0 || (!tombstone && valueLen > value.length)) {
            throw new IllegalArgumentException("invalid lengths: key " + keyLen + " of byte[" + key.length + "], value "
                    + valueLen + (tombstone ? "" : " of byte[" + value.length + "]"));
        }
        if (keyLen > maxKeyLength) {
            throw new IllegalArgumentException("key of " + keyLen + " bytes exceeds the limit of " + maxKeyLength
                    + " bytes for SSTable pages of " + options.pageSize() + " bytes (" + path + ")");
        }
        if (keyLen + storedValueLen > maxRecordLength) {
            throw new IllegalArgumentException("record of " + (keyLen + storedValueLen) + " bytes (key " + keyLen + " + value "
                    + storedValueLen + ") exceeds the limit of " + maxRecordLength + " bytes for SSTable pages of "
                    + options.pageSize() + " bytes (" + path + ")");
        }
        if (lastKeyLength >= 0 && Arrays.compareUnsigned(key, 0, keyLen, lastKey, 0, lastKeyLength) <= 0) {
            throw new IllegalArgumentException("keys must be strictly increasing: key #" + entryCount + " "
                    + hex(key, keyLen) + " is not greater than the previous key " + hex(lastKey, lastKeyLength) + " (" + path + ")");
        }
        try {
            leaves.add(key, keyLen, value, storedValueLen, tombstone);
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
        bloom.add(KeyHash.hash(key, 0, keyLen));
        if (firstKey == null) {
            firstKey = Arrays.copyOf(key, keyLen);
        }
        if (lastKey.length < keyLen) {
            lastKey = new byte[Math.max(keyLen, lastKey.length * 2)];
        }
        System.arraycopy(key, 0, lastKey, 0, keyLen);
        lastKeyLength = keyLen;
        entryCount++;
        if (tombstone) {
            tombstoneCount++;
        }
    }

    /**
     * Writes the index, Bloom filter and footer, fsyncs and closes the file.
     *
     * @param minLsn smallest LSN of the entries (recorded in the footer)
     * @param maxLsn largest LSN of the entries (recorded in the footer; recovery replays above it)
     * @throws IllegalStateException if no entry was added (abort instead: a table is never empty)
     */
    public SSTableMetadata finish(long minLsn, long maxLsn) throws IOException {
        requireState(State.OPEN, "finish");
        if (entryCount == 0) {
            throw new IllegalStateException("cannot finish SSTable " + path + " without entries; abort() it instead");
        }
        if (minLsn > maxLsn) {
            throw new IllegalArgumentException("minLsn " + minLsn + " > maxLsn " + maxLsn);
        }
        try {
            leaves.finish();
            int leafCount = index.leafCount();
            IndexBuilder.Result idx = index.build(pages);
            int bloomFirst = pages.nextPage();
            writeBloom();
            int bloomPages = pages.nextPage() - bloomFirst;
            SSTableMetadata meta = new SSTableMetadata(formatVersion, options.pageSize(), entryCount,
                    tombstoneCount, firstKey, Arrays.copyOf(lastKey, lastKeyLength), minLsn, maxLsn, idx.rootPage(),
                    idx.height(), 0, leafCount, idx.firstPage(), idx.pageCount(), bloomFirst, bloomPages,
                    bloom.blockCount(), BloomFilterBuilder.hashCount(options.bloomBitsPerKey()), options.bloomBitsPerKey(),
                    options.compression());
            byte[] footer = FooterCodec.encode(meta);
            pages.writePage(SSTableFormat.TYPE_FOOTER, (byte) 0, footer, footer.length);
            pages.flush();
            file.sync();
            file.close();
            pages.close();
            state = State.FINISHED;
            return meta;
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private void writeBloom() throws IOException {
        int blocks = bloom.blockCount();
        long[] words = bloom.build(); // also when empty: it hands the thread's hash array back
        if (blocks == 0) {
            return;
        }
        int perPage = BloomPageDescriptor.blocksPerPage(options.pageSize());
        byte[] payload = new byte[SSTableFormat.payload(options.pageSize())];
        int base = BloomPageDescriptor.FIRST_BLOCK_OFFSET; // page offset of payload byte 0
        for (int first = 0; first < blocks; first += perPage) {
            int n = Math.min(perPage, blocks - first);
            Arrays.fill(payload, (byte) 0);
            LittleEndian.putInt(payload, BloomPageDescriptor.FIRST_BLOCK_OFFSET - base, first);
            LittleEndian.putInt(payload, BloomPageDescriptor.BLOCK_COUNT_OFFSET - base, n);
            int at = BloomPageDescriptor.BLOCKS_OFFSET - base;
            for (int w = first * 8; w < (first + n) * 8; w++, at += 8) {
                LittleEndian.putLong(payload, at, words[w]);
            }
            pages.writePage(SSTableFormat.TYPE_BLOOM, (byte) 0, payload, at);
        }
    }

    private void writeLeaf(byte flags, byte[] payload, int length, byte[] records, int firstOffset, int firstLength,
                           int lastOffset, int lastLength) throws IOException {
        int pageNo = pages.writePage(SSTableFormat.TYPE_LEAF, flags, payload, length);
        index.addLeaf(pageNo, records, firstOffset, firstLength, lastOffset, lastLength);
    }

    /**
     * Abandons the table: closes and deletes the file. Idempotent; does nothing after a successful
     * {@link #finish} (the table is complete and belongs to the caller).
     */
    public void abort() throws IOException {
        if (state == State.FINISHED || state == State.ABORTED) {
            return;
        }
        state = State.ABORTED;
        pages.close();
        try {
            file.close();
        } finally {
            fs.delete(path);
        }
    }

    /** Same as {@link #abort}: a writer closed before {@link #finish} leaves no file behind. */
    @Override
    public void close() throws IOException {
        abort();
    }

    private void requireState(State expected, String op) {
        if (state != expected) {
            throw new IllegalStateException("cannot " + op + " SSTable writer for " + path + " in state " + state);
        }
    }

    private static String hex(byte[] b, int len) {
        StringBuilder s = new StringBuilder("0x");
        for (int i = 0; i < Math.min(len, 32); i++) {
            s.append(String.format("%02x", b[i]));
        }
        return len > 32 ? s.append("...(").append(len).append(" B)").toString() : s.toString();
    }
}
