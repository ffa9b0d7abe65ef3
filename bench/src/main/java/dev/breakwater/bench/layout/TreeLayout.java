package dev.breakwater.bench.layout;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.sstable.Compression;
import dev.breakwater.lsm.sstable.LeafPageDescriptor;
import dev.breakwater.lsm.sstable.SSTableFormat;
import dev.breakwater.lsm.sstable.SSTableMetadata;
import dev.breakwater.lsm.sstable.SSTableReader;
import dev.breakwater.lsm.tree.TableFiles;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.ManifestFormat;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The on-disk layout of one closed tree directory, read without changing it: tables per level,
 * their size distribution, bytes of table files against logical bytes (the key and value bytes of
 * the newest version of every live key, read back through {@link SSTableReader} from the newest
 * table to the oldest, so older versions and deleted keys do not count), and the manifest's size
 * and the edits replaying it takes.
 *
 * <p>Space amplification is table-file bytes over logical bytes.
 *
 * <p>Thread safety: an immutable value; {@link #read} is stateless.
 *
 * @param tables          SSTables in the version
 * @param tablesPerLevel  SSTables per level, L0 first
 * @param sizeBuckets     table count per size bucket (label: upper bound)
 * @param tableBytes      bytes of the version's table files
 * @param filesOnDisk     every file in the directory (tables, manifest, CURRENT), bytes
 * @param logicalBytes    key plus value bytes of the newest version of every live key
 * @param entries         entries in the tables, older versions and tombstones included
 * @param liveEntries     live keys
 * @param encodedBytes    bytes the leaf format spends on the live entries: key, value, slot and
 *                        lengths, as each table's format version encodes them
 * @param leafPages       leaf pages of the version's tables
 * @param manifestBytes   bytes of the manifest files in the directory
 * @param manifestEdits   records replayed to rebuild the version from the live manifest
 */
record TreeLayout(int tables, List<Integer> tablesPerLevel, Map<String, Integer> sizeBuckets, long tableBytes, long filesOnDisk,
                  long logicalBytes, long entries, long liveEntries, long encodedBytes, long leafPages, long manifestBytes,
                  int manifestEdits) {

    /**
     * Table bytes over the live entries as the leaf format encodes them ({@link #encodedBytes}):
     * what the layout wastes (partly filled pages, per-table index, Bloom and footer pages, older
     * versions), apart from what the format costs per entry.
     */
    double layoutAmplification() {
        return encodedBytes == 0 ? 0 : (double) tableBytes / encodedBytes;
    }

    /** Entries (older versions and tombstones included) per leaf page. */
    double entriesPerLeaf() {
        return leafPages == 0 ? 0 : (double) entries / leafPages;
    }

    /**
     * Bytes a leaf of SSTable format {@code version} spends on an entry besides its key and value:
     * a slot and the two lengths. A version-2 slot is 2 to 4 bytes by the leaf's body length; this
     * takes the width of the longest body the table may have ({@code maxBody}), an upper bound.
     */
    static int entryOverhead(int version, int maxBody, int keyLength, int valueLength, boolean tombstone) {
        return LeafPageDescriptor.slotWidth(version, maxBody)
                + LeafPageDescriptor.entryHeaderLength(version, keyLength, valueLength, tombstone);
    }

    private static final long[] BUCKETS = {16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20, Long.MAX_VALUE};
    private static final String[] LABELS = {"<=16K", "<=64K", "<=256K", "<=1M", "<=4M", "<=16M", "<=64M", ">64M"};

    double spaceAmplification() {
        return logicalBytes == 0 ? 0 : (double) tableBytes / logicalBytes;
    }

    /** Reads the layout of the closed tree in {@code dir}; {@code pageSize} must be the tree's. */
    static TreeLayout read(Path dir, int pageSize) throws IOException {
        FileSystem fs = RealFileSystem.create();
        Manifest.Replayed m = Manifest.read(fs, dir);
        Version v = m.version();
        List<Integer> perLevel = new ArrayList<>();
        for (int i = 0; i < v.levelCount(); i++) {
            perLevel.add(v.levelTables(i));
        }
        Map<String, Integer> buckets = new LinkedHashMap<>();
        for (String l : LABELS) {
            buckets.put(l, 0);
        }
        long tableBytes = 0;
        long logical = 0;
        long entries = 0;
        long live = 0;
        long encoded = 0;
        long leafPages = 0;
        Set<ByteBuffer> seen = new HashSet<>();
        IoStatistics io = new IoStatistics();
        try (BufferCache cache = new BufferCache(BufferCacheOptions.of(pageSize, 64L * pageSize), io)) {
            for (TableMeta t : v.allTables()) { // newest first: L0 groups newest first, then L1, L2, ...
                long size = Files.size(TableFiles.path(dir, t.fileNumber()));
                tableBytes += size;
                for (int b = 0; b < BUCKETS.length; b++) {
                    if (size <= BUCKETS[b]) {
                        buckets.merge(LABELS[b], 1, Integer::sum);
                        break;
                    }
                }
                try (SSTableReader r = SSTableReader.open(fs, TableFiles.path(dir, t.fileNumber()), cache, false, IoPurpose.QUERY);
                     EntryCursor c = r.cursor(null, 0, IoPurpose.QUERY)) {
                    SSTableMetadata meta = r.metadata();
                    leafPages += meta.leafPageCount();
                    int maxBody = SSTableFormat.payload(pageSize)
                            * (meta.compression() == Compression.NONE ? 1 : SSTableFormat.MAX_LOGICAL_LEAF_PAGES);
                    while (c.next()) {
                        entries++;
                        if (seen.add(ByteBuffer.wrap(Arrays.copyOf(c.key(), c.keyLength()))) && !c.isTombstone()) {
                            logical += c.keyLength() + c.valueLength();
                            encoded += c.keyLength() + c.valueLength()
                                    + entryOverhead(meta.formatVersion(), maxBody, c.keyLength(), c.valueLength(), false);
                            live++;
                        }
                    }
                }
            }
        }
        long all = 0;
        long manifestBytes = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                long s = Files.size(p);
                all += s;
                if (p.getFileName().toString().startsWith(ManifestFormat.MANIFEST_PREFIX)) {
                    manifestBytes += s;
                }
            }
        }
        return new TreeLayout(v.allTables().size(), perLevel, buckets, tableBytes, all, logical, entries, live, encoded, leafPages,
                manifestBytes, m.edits());
    }
}
