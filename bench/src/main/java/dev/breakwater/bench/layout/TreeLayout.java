package dev.breakwater.bench.layout;

import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.sstable.LeafPageDescriptor;
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
 * @param manifestBytes   bytes of the manifest files in the directory
 * @param manifestEdits   records replayed to rebuild the version from the live manifest
 */
record TreeLayout(int tables, List<Integer> tablesPerLevel, Map<String, Integer> sizeBuckets, long tableBytes, long filesOnDisk,
                  long logicalBytes, long entries, long liveEntries, long manifestBytes, int manifestEdits) {

    /** Bytes a leaf page spends on each entry besides its key and value: a slot and the two lengths. */
    static final int ENTRY_OVERHEAD = LeafPageDescriptor.SLOT_SIZE + LeafPageDescriptor.ENTRY_HEADER;

    /**
     * Table bytes over the live entries as the leaf format encodes them (key, value and
     * {@link #ENTRY_OVERHEAD} each): what the layout wastes (partly filled pages, per-table index,
     * Bloom and footer pages, older versions), apart from what the format costs per entry.
     */
    double layoutAmplification() {
        long encoded = logicalBytes + liveEntries * ENTRY_OVERHEAD;
        return encoded == 0 ? 0 : (double) tableBytes / encoded;
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
                    while (c.next()) {
                        entries++;
                        if (seen.add(ByteBuffer.wrap(Arrays.copyOf(c.key(), c.keyLength()))) && !c.isTombstone()) {
                            logical += c.keyLength() + c.valueLength();
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
        return new TreeLayout(v.allTables().size(), perLevel, buckets, tableBytes, all, logical, entries, live, manifestBytes, m.edits());
    }
}
