package dev.breakwater.lsm.sstable;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.CachedPage;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.memory.OffHeapPage;
import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageChecksum;
import dev.breakwater.common.page.PageDescriptor;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.LookupResult;
import dev.breakwater.lsm.ValueHolder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Reads an SSTable file (docs/formats.md) through the shared {@link BufferCache}: point lookups
 * guarded by the blocked Bloom filter, and ordered cursors.
 *
 * <p>Every page access is a {@link BufferCache#pin} / {@link BufferCache#unpin} pair with the
 * caller's {@link IoPurpose} (except a merge's {@link #sequentialCursor}, which reads the leaves in
 * chunks without the cache), and at most one page is pinned at a time: a lookup pins the Bloom
 * page, then each index page from the root down, then the leaf, releasing each before the next. A
 * key outside the table's key range pins nothing; a key the filter excludes pins exactly one Bloom
 * page and no index or leaf page.
 *
 * <p>Allocation: {@link #get} and {@link #mayContain} allocate nothing once warm: pages are read
 * through {@link OffHeapPage} flyweights and per-thread {@link ReadScratch} buffers (LZ4 leaves are
 * decompressed into the thread's scratch array). A cursor allocates its buffers once.
 *
 * <p>Invariants: (1) the metadata was validated against the file size and the cache's page size at
 * open, so page numbers derived from it are inside the file; (2) the file stays registered with the
 * cache until {@link #close}.
 *
 * <p>Thread safety: {@link #get}, {@link #mayContain}, {@link #cursor}, {@link #reverseCursor} and {@link #metadata} are
 * safe from many threads at once; each cursor is used by one thread. {@link #close} requires that
 * no other call or open cursor is in use.
 */
public final class SSTableReader implements AutoCloseable {

    private static final ThreadLocal<ReadScratch> SCRATCH = ThreadLocal.withInitial(ReadScratch::new);
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private final Path path;
    private final String name;
    private final StorageFile file;
    private final BufferCache cache;
    private final int fileId;
    private final SSTableMetadata metadata;
    private final SSTableReadStatistics statistics = new SSTableReadStatistics();
    private final int pageSize;
    private final byte[] firstKey;
    private final byte[] lastKey;
    private final int rootPage;
    private final int indexHeight;
    private final int leafFirst;
    private final int leafEnd;
    private final int indexFirst;
    private final int indexEnd;
    private final int bloomFirst;
    private final int bloomPages;
    private final int bloomBlocks;
    private final int bloomHashes;
    private final int blocksPerPage;
    private final int maxLogicalLeaf;
    /** The footer's SSTable format version, which decides how leaves are decoded. */
    private final int leafVersion;

    private SSTableReader(Path path, StorageFile file, BufferCache cache, int fileId, SSTableMetadata m) {
        this.path = path;
        this.name = path.toString();
        this.file = file;
        this.cache = cache;
        this.fileId = fileId;
        this.metadata = m;
        this.pageSize = m.pageSize();
        this.firstKey = m.firstKey();
        this.lastKey = m.lastKey();
        this.rootPage = m.rootPage();
        this.indexHeight = m.indexHeight();
        this.leafFirst = m.leafFirstPage();
        this.leafEnd = m.leafFirstPage() + m.leafPageCount();
        this.indexFirst = m.indexFirstPage();
        this.indexEnd = m.indexFirstPage() + m.indexPageCount();
        this.bloomFirst = m.bloomFirstPage();
        this.bloomPages = m.bloomPageCount();
        this.bloomBlocks = m.bloomBlocks();
        this.bloomHashes = m.bloomHashCount();
        this.blocksPerPage = BloomPageDescriptor.blocksPerPage(pageSize);
        this.maxLogicalLeaf = SSTableFormat.payload(pageSize) * SSTableFormat.MAX_LOGICAL_LEAF_PAGES;
        this.leafVersion = m.formatVersion();
    }

    /**
     * Opens an SSTable: registers the file with the cache and reads and validates its footer, counted
     * under {@code purpose}: {@link IoPurpose#FLUSH} or {@link IoPurpose#MERGE} for a table a flush
     * or merge installs, {@link IoPurpose#LOG} for tables opened while a tree recovers (with its
     * manifest), {@link IoPurpose#QUERY} only for a reader opened to serve queries. The tuner reads
     * QUERY misses as what queries cost, so a footer read at install must not land there.
     *
     * @param directIo open the file with {@link OpenOption#DIRECT}, so the buffer cache is its only cache
     * @param purpose  what the footer read is counted as
     * @throws CorruptSSTableException if the file is not a whole number (at least two) of pages of
     *                                 the cache's page size, or the footer disagrees with the file
     * @throws CorruptPageException    if the footer page fails verification or is not a footer
     */
    public static SSTableReader open(FileSystem fs, Path path, BufferCache cache, boolean directIo, IoPurpose purpose)
            throws IOException {
        return open(fs, path, cache, directIo, purpose, null);
    }

    /**
     * As {@link #open(FileSystem, Path, BufferCache, boolean, IoPurpose)}, and the cache counts every
     * page of this table that a query reads from disk in {@code queryReads} (the owning tree's
     * counter; null for none).
     */
    public static SSTableReader open(FileSystem fs, Path path, BufferCache cache, boolean directIo, IoPurpose purpose,
                                     LongAdder queryReads) throws IOException {
        StorageFile file = directIo ? fs.open(path, OpenOption.READ, OpenOption.DIRECT) : fs.open(path, OpenOption.READ);
        int fileId = -1;
        try {
            int ps = cache.pageSize();
            long size = file.size();
            if (size < 2L * ps || size % ps != 0) {
                throw new CorruptSSTableException(path, "file size " + size + " bytes is not a whole number (at least 2) of "
                        + ps + "-byte pages: truncated, or not an SSTable with the buffer cache's page size");
            }
            if (size / ps > Integer.MAX_VALUE) {
                throw new CorruptSSTableException(path, "file of " + size + " bytes has more pages than page numbers allow");
            }
            int pages = (int) (size / ps);
            fileId = cache.registerFile(file, path.toString(), queryReads);
            SSTableMetadata m = readFooter(cache, fileId, pages - 1, path.toString(), purpose);
            validate(m, pages, ps, path);
            return new SSTableReader(path, file, cache, fileId, m);
        } catch (IOException | RuntimeException e) {
            if (fileId >= 0) {
                cache.unregisterFile(fileId);
            }
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static SSTableMetadata readFooter(BufferCache cache, int fileId, int pageNo, String name, IoPurpose purpose)
            throws IOException {
        CachedPage cp = cache.pin(fileId, pageNo, purpose);
        try {
            OffHeapPage p = new OffHeapPage(cp.address(), cp.size());
            byte type = p.getByte(PageDescriptor.TYPE_OFFSET);
            if (type != SSTableFormat.TYPE_FOOTER) {
                throw new CorruptPageException(name, pageNo, "the last page is a " + SSTableFormat.typeName(type)
                        + " page, not the FOOTER: the file is truncated or not a complete SSTable");
            }
            int length = p.getInt(PageDescriptor.PAYLOAD_LENGTH_OFFSET);
            if (length < 0 || length > SSTableFormat.payload(cp.size())) {
                throw new CorruptPageException(name, pageNo, "footer payload length " + length + " out of range");
            }
            byte[] payload = new byte[length];
            p.getBytes(PageDescriptor.HEADER_LENGTH, payload, 0, length);
            return FooterCodec.decode(payload, length, name, pageNo);
        } finally {
            cache.unpin(cp);
        }
    }

    private static void validate(SSTableMetadata m, int pages, int ps, Path path) throws CorruptSSTableException {
        String problem = null;
        if (m.pageSize() != ps) {
            problem = "footer says page size " + m.pageSize() + " but the buffer cache reads " + ps + "-byte pages";
        } else if (m.pageCount() != pages) {
            problem = "footer describes " + m.pageCount() + " pages but the file has " + pages;
        } else if (m.leafFirstPage() != 0 || m.leafPageCount() < 1 || m.indexFirstPage() != m.leafPageCount()
                || m.bloomFirstPage() != m.indexFirstPage() + m.indexPageCount()) {
            problem = "inconsistent page ranges in " + m;
        } else if (m.indexHeight() == 0 ? (m.indexPageCount() != 0 || m.rootPage() != 0 || m.leafPageCount() != 1)
                : (m.indexHeight() < 0 || m.rootPage() != m.indexFirstPage() + m.indexPageCount() - 1)) {
            problem = "inconsistent root/height in " + m;
        } else if (m.bloomPageCount() > 0 && (m.bloomBlocks() < 1 || m.bloomHashCount() < 1 || m.bloomHashCount() > 16
                || m.bloomBlocks() > (long) m.bloomPageCount() * BloomPageDescriptor.blocksPerPage(ps))) {
            problem = "inconsistent Bloom filter parameters in " + m;
        } else if (m.entryCount() < 1 || m.tombstoneCount() < 0 || m.tombstoneCount() > m.entryCount()) {
            problem = "inconsistent entry counts in " + m;
        }
        if (problem != null) {
            throw new CorruptSSTableException(path, problem);
        }
    }

    public Path path() {
        return path;
    }

    public SSTableMetadata metadata() {
        return metadata;
    }

    /** Bloom filter counters of this reader. */
    public SSTableReadStatistics statistics() {
        return statistics;
    }

    /**
     * Probes the Bloom filter: false means the table certainly has no entry for the key. Pins one
     * Bloom page (none if the table has no filter, which answers true).
     */
    public boolean mayContain(byte[] key, int keyLen, IoPurpose purpose) throws IOException {
        return probe(KeyHash.hash(key, 0, keyLen), purpose, SCRATCH.get().page, null);
    }

    private boolean probe(long hash, IoPurpose purpose, OffHeapPage p, LongAdder onMiss) throws IOException {
        if (bloomPages == 0) {
            return true;
        }
        statistics.bloomProbes.increment();
        int block = BloomFilterBuilder.blockOf(hash, bloomBlocks);
        int pageNo = bloomFirst + BloomFilterPage.pageOf(block, blocksPerPage);
        CachedPage cp = cache.pin(fileId, pageNo, purpose, onMiss);
        try {
            wrap(cp, p, SSTableFormat.TYPE_BLOOM, pageNo);
            boolean maybe = BloomFilterPage.mayContain(p, BloomPageDescriptor.blockOffset(block % blocksPerPage), hash, bloomHashes);
            if (!maybe) {
                statistics.bloomNegatives.increment();
            }
            return maybe;
        } finally {
            cache.unpin(cp);
        }
    }

    /**
     * Looks up {@code key[0, keyLen)}. On {@link LookupResult#FOUND} the value is copied into
     * {@code out} (with the table's maximum LSN); otherwise {@code out} is unchanged.
     */
    public LookupResult get(byte[] key, int keyLen, ValueHolder out, IoPurpose purpose) throws IOException {
        return get(key, keyLen, out, purpose, null);
    }

    /**
     * As {@link #get(byte[], int, ValueHolder, IoPurpose)}, and every page the lookup reads from disk
     * (Bloom, index or leaf) also increments {@code onMiss} (null for none): the owning tree counts its
     * point lookups' misses apart from its scans', since only a scan reads every level it crosses.
     */
    public LookupResult get(byte[] key, int keyLen, ValueHolder out, IoPurpose purpose, LongAdder onMiss) throws IOException {
        if (Arrays.compareUnsigned(key, 0, keyLen, firstKey, 0, firstKey.length) < 0
                || Arrays.compareUnsigned(key, 0, keyLen, lastKey, 0, lastKey.length) > 0) {
            return LookupResult.ABSENT;
        }
        ReadScratch s = SCRATCH.get();
        if (!probe(KeyHash.hash(key, 0, keyLen), purpose, s.page, onMiss)) {
            return LookupResult.ABSENT;
        }
        int leafNo = findLeaf(key, keyLen, purpose, s.page, onMiss);
        CachedPage cp = cache.pin(fileId, leafNo, purpose, onMiss);
        try {
            LeafView leaf = viewLeaf(cp, leafNo, s);
            if (leaf.find(key, keyLen) < 0) {
                if (bloomPages > 0) {
                    statistics.bloomFalsePositives.increment();
                }
                return LookupResult.ABSENT;
            }
            // find made the matching entry the leaf's current entry
            if (leaf.isTombstone()) {
                return LookupResult.DELETED;
            }
            int valueLength = leaf.valueLength();
            byte[] dst = out.prepare(valueLength, metadata.maxLsn());
            leaf.copy(leaf.valueOffset(), dst, valueLength);
            return LookupResult.FOUND;
        } finally {
            cache.unpin(cp);
        }
    }

    /**
     * A cursor over the entries with keys &gt;= {@code fromKeyInclusive[0, fromLen)}, or over all
     * entries if it is null. The cursor pins one leaf at a time, only inside {@link EntryCursor#next}
     * (it copies the leaf out), so an idle cursor holds no pin.
     */
    public EntryCursor cursor(byte[] fromKeyInclusive, int fromLen, IoPurpose purpose) throws IOException {
        return new SSTableCursor(this, fromKeyInclusive, fromLen, purpose);
    }

    /**
     * A cursor over the entries with keys &lt; {@code toKeyExclusive[0, toLen)}, or over all entries
     * if it is null, in descending key order. It walks the leaves backward (they are contiguous pages,
     * so the previous leaf is the previous page; the index is searched once, for the starting leaf),
     * pinning one leaf at a time only inside {@link EntryCursor#next}, as {@link #cursor} does.
     */
    public EntryCursor reverseCursor(byte[] toKeyExclusive, int toLen, IoPurpose purpose) throws IOException {
        return new SSTableCursor(this, toKeyExclusive, toLen, purpose, true);
    }

    /**
     * A cursor over the entries of leaf page {@code leafNo} alone, for inspection tools: checking
     * leaf by leaf names the page of any problem and goes on past a damaged leaf. Leaves are the
     * pages {@code [metadata().leafFirstPage(), leafFirstPage() + leafPageCount())}.
     *
     * @throws IllegalArgumentException if {@code leafNo} is not a leaf page
     * @throws CorruptPageException     if the leaf fails verification
     */
    public EntryCursor leafCursor(int leafNo, IoPurpose purpose) throws IOException {
        if (leafNo < leafFirst || leafNo >= leafEnd) {
            throw new IllegalArgumentException("page " + leafNo + " of " + name + " is not a leaf (leaves are pages "
                    + leafFirst + " to " + (leafEnd - 1) + ")");
        }
        return new SSTableCursor(this, leafNo, purpose);
    }

    /** Descends from the root to the leaf that may hold {@code key}; returns its page number. */
    int findLeaf(byte[] key, int keyLen, IoPurpose purpose, OffHeapPage p) throws IOException {
        return findLeaf(key, keyLen, purpose, p, null);
    }

    private int findLeaf(byte[] key, int keyLen, IoPurpose purpose, OffHeapPage p, LongAdder onMiss) throws IOException {
        int pageNo = rootPage;
        for (int level = indexHeight; level > 0; level--) {
            CachedPage cp = cache.pin(fileId, pageNo, purpose, onMiss);
            try {
                wrap(cp, p, SSTableFormat.TYPE_INDEX, pageNo);
                int count = p.getInt(IndexPageDescriptor.COUNT_OFFSET);
                if (p.getInt(IndexPageDescriptor.LEVEL_OFFSET) != level || count < 1
                        || count > (pageSize - IndexPageDescriptor.SLOTS_OFFSET) / IndexPageDescriptor.SLOT_SIZE) {
                    throw new CorruptPageException(name, pageNo, "index page has level " + p.getInt(IndexPageDescriptor.LEVEL_OFFSET)
                            + " and " + count + " entries, expected level " + level + " and a slot array that fits the page");
                }
                int lo = 1;
                int hi = count - 1;
                int best = 0;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    int e = indexEntry(p, mid, pageNo);
                    int c = p.compareUnsigned(IndexPageDescriptor.separatorOffset(e),
                            p.getInt(IndexPageDescriptor.separatorLengthOffset(e)), key, 0, keyLen);
                    if (c <= 0) {
                        best = mid;
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                int child = p.getInt(IndexPageDescriptor.childOffset(indexEntry(p, best, pageNo)));
                boolean valid = level == 1 ? child >= leafFirst && child < leafEnd : child >= indexFirst && child < indexEnd;
                if (!valid) {
                    throw new CorruptPageException(name, pageNo, "child page " + child + " out of range at index level " + level);
                }
                pageNo = child;
            } finally {
                cache.unpin(cp);
            }
        }
        return pageNo;
    }

    /**
     * Page offset of entry {@code slot} of the index page in {@code p}, checked: the entry header and
     * its separator lie inside the page (a page that passed its checksum may still be malformed).
     */
    private int indexEntry(OffHeapPage p, int slot, int pageNo) throws CorruptPageException {
        int e = p.getInt(IndexPageDescriptor.slotOffset(slot));
        if (e < IndexPageDescriptor.SLOTS_OFFSET || e > pageSize - IndexPageDescriptor.ENTRY_HEADER) {
            throw new CorruptPageException(name, pageNo, "index slot " + slot + " points at offset " + e + ", outside the page");
        }
        int length = p.getInt(IndexPageDescriptor.separatorLengthOffset(e));
        if (length < 0 || length > pageSize - IndexPageDescriptor.separatorOffset(e)) {
            throw new CorruptPageException(name, pageNo, "index entry " + slot + " has a separator of " + length
                    + " bytes that runs past the page");
        }
        return e;
    }

    /** Leaf number {@code i} of the table is page {@code leafFirst + i}; the end is exclusive. */
    int leafEnd() {
        return leafEnd;
    }

    int leafFirst() {
        return leafFirst;
    }

    byte[] firstKeyNoCopy() {
        return firstKey;
    }

    byte[] lastKeyNoCopy() {
        return lastKey;
    }

    /**
     * Points {@code s.leaf} at the body of the pinned leaf {@code cp}: in place if uncompressed, else
     * decompressed into {@code s.body}.
     */
    private LeafView viewLeaf(CachedPage cp, int leafNo, ReadScratch s) throws CorruptPageException {
        return viewLeafAt(cp.address(), leafNo, s);
    }

    /**
     * Points {@code s.leaf} at the body of leaf {@code leafNo}, verified and held at {@code address}
     * (pinned, or in a {@link LeafReadAhead} chunk) for as long as the view is used.
     */
    LeafView viewLeafAt(long address, int leafNo, ReadScratch s) throws CorruptPageException {
        OffHeapPage p = wrap(address, s.page, SSTableFormat.TYPE_LEAF, leafNo);
        int length = payloadLength(p, leafNo);
        if ((p.getByte(PageDescriptor.FLAGS_OFFSET) & SSTableFormat.FLAG_LZ4) != 0) {
            return s.leaf.wrapHeap(decompress(p, leafNo, length, s), p.getInt(LeafPageDescriptor.UNCOMPRESSED_LENGTH_OFFSET),
                    leafVersion, name, leafNo);
        }
        return s.leaf.wrapOffHeap(address + LeafPageDescriptor.RAW_BODY_OFFSET, length, leafVersion, name, leafNo);
    }

    /**
     * Reads pages {@code [first, first + count)} into {@code chunk} (from position 0, page-aligned,
     * at least {@code count} pages long) with one read, not through the cache; verifies each page as
     * the cache verifies a page it loads, and records the read under {@code purpose}.
     *
     * @throws CorruptPageException naming the first page that fails verification
     */
    void readPagesUncached(int first, int count, ByteBuffer chunk, IoPurpose purpose) throws IOException {
        chunk.clear().limit(count * pageSize);
        file.read((long) first * pageSize, chunk);
        for (int i = 0; i < count; i++) {
            chunk.limit((i + 1) * pageSize).position(i * pageSize);
            PageChecksum.verify(chunk, pageSize, name, first + i);
        }
        chunk.clear();
        cache.recordUncachedRead(purpose, count);
    }

    /**
     * A forward cursor over every entry that reads the leaves {@code readAheadPages} at a time straight
     * from the file ({@link LeafReadAhead}), for merges, which read each input once from start to end.
     * It holds {@code readAheadPages} pages of off-heap memory until it is closed.
     */
    public EntryCursor sequentialCursor(IoPurpose purpose, int readAheadPages) throws IOException {
        return new SSTableCursor(this, new LeafReadAhead(this, purpose, readAheadPages), purpose);
    }

    String name() {
        return name;
    }

    /** Copies the body of leaf {@code leafNo} into {@code s.body} (decompressing it if needed) and points {@code s.leaf} at it. */
    LeafView copyLeaf(int leafNo, IoPurpose purpose, ReadScratch s) throws IOException {
        CachedPage cp = cache.pin(fileId, leafNo, purpose);
        try {
            OffHeapPage p = wrap(cp, s.page, SSTableFormat.TYPE_LEAF, leafNo);
            int length = payloadLength(p, leafNo);
            if ((p.getByte(PageDescriptor.FLAGS_OFFSET) & SSTableFormat.FLAG_LZ4) != 0) {
                return s.leaf.wrapHeap(decompress(p, leafNo, length, s), p.getInt(LeafPageDescriptor.UNCOMPRESSED_LENGTH_OFFSET),
                    leafVersion, name, leafNo);
            }
            byte[] body = s.body(length);
            p.getBytes(LeafPageDescriptor.RAW_BODY_OFFSET, body, 0, length);
            return s.leaf.wrapHeap(body, length, leafVersion, name, leafNo);
        } finally {
            cache.unpin(cp);
        }
    }

    private byte[] decompress(OffHeapPage p, int leafNo, int payloadLength, ReadScratch s) throws CorruptPageException {
        int rawLength = p.getInt(LeafPageDescriptor.UNCOMPRESSED_LENGTH_OFFSET);
        int compressedLength = payloadLength - 4;
        if (compressedLength < 0 || rawLength < 1 || rawLength > maxLogicalLeaf) {
            throw new CorruptPageException(name, leafNo, "compressed leaf lengths out of range: " + compressedLength + " -> " + rawLength);
        }
        byte[] src = s.compressed(compressedLength);
        p.getBytes(LeafPageDescriptor.COMPRESSED_DATA_OFFSET, src, 0, compressedLength);
        byte[] body = s.body(rawLength);
        try {
            int n = DECOMPRESSOR.decompress(src, 0, compressedLength, body, 0, rawLength);
            if (n != rawLength) {
                throw new CorruptPageException(name, leafNo, "LZ4 leaf decompressed to " + n + " bytes, expected " + rawLength);
            }
        } catch (LZ4Exception e) {
            throw new CorruptPageException(name, leafNo, "LZ4 leaf does not decompress: " + e.getMessage());
        }
        return body;
    }

    private int payloadLength(OffHeapPage p, int pageNo) throws CorruptPageException {
        int length = p.getInt(PageDescriptor.PAYLOAD_LENGTH_OFFSET);
        if (length < 0 || length > pageSize - PageDescriptor.HEADER_LENGTH) {
            throw new CorruptPageException(name, pageNo, "payload length " + length + " out of range");
        }
        return length;
    }

    private OffHeapPage wrap(CachedPage cp, OffHeapPage p, byte expectedType, int pageNo) throws CorruptPageException {
        return wrap(cp.address(), p, expectedType, pageNo);
    }

    private OffHeapPage wrap(long address, OffHeapPage p, byte expectedType, int pageNo) throws CorruptPageException {
        p.wrap(address, pageSize);
        byte type = p.getByte(PageDescriptor.TYPE_OFFSET);
        if (type != expectedType) {
            throw new CorruptPageException(name, pageNo, "expected a " + SSTableFormat.typeName(expectedType)
                    + " page, found " + SSTableFormat.typeName(type));
        }
        return p;
    }

    /** Unregisters the file from the cache and closes it. Requires: no call or cursor in use. */
    @Override
    public void close() throws IOException {
        cache.unregisterFile(fileId);
        file.close();
    }
}
