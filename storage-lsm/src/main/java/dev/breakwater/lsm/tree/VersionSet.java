package dev.breakwater.lsm.tree;

import dev.breakwater.common.util.Backoff;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.sstable.SSTableReader;
import dev.breakwater.lsm.version.CorruptManifestException;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.ManifestFormat;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionBuilder;
import dev.breakwater.lsm.version.VersionEdit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tree's current {@link Version}, its manifest, and the open SSTable readers (LevelDB's
 * {@code VersionSet}). {@link #logAndApply} is the one place the set of disk components changes:
 * it appends the edit to the manifest and syncs it, opens readers for the new tables, and only then
 * installs the new version. Every table carries a count of the versions that contain it; when the
 * last such version is released (no reader left), the table's reader is closed and its file deleted.
 *
 * <p>Invariants: (1) a table is readable (its reader open, its file present) while any live version
 * contains it; (2) the manifest's content equals the current version; (3) file numbers and run ids
 * are never reused.
 *
 * <p>Thread safety: {@link #logAndApply} and {@link #close} are serialized by the instance monitor;
 * {@link #current()}, {@link #reader} and the allocators are safe from any thread.
 */
final class VersionSet implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VersionSet.class);

    private final String treeName;
    private final FileSystem fs;
    private final Path dir;
    private final BufferCache cache;
    private final boolean directIo;
    private final Manifest manifest;
    private final AtomicLong nextFileNumber;
    private final AtomicLong nextRunId;
    /** The first file number this instance allocates: above every table file present at open. */
    private final long firstNewFileNumber;
    private final Map<Long, SSTableReader> readers = new ConcurrentHashMap<>();
    /** Pages of this tree's tables that queries read from disk (buffer-cache query misses), ever. */
    private final LongAdder queryPagesRead = new LongAdder();
    /** Guarded by this. */
    private final Map<Long, Integer> versionsPerTable = new HashMap<>();
    /** Bloom counts of readers already closed: probes, negatives, false positives. Guarded by this. */
    private final long[] retiredBloom = new long[3];
    private volatile Version current;
    private boolean closed;

    private VersionSet(String treeName, FileSystem fs, Path dir, BufferCache cache, boolean directIo, Manifest.Opened opened,
                       long firstFreeFileNumber) {
        this.treeName = treeName;
        this.fs = fs;
        this.dir = dir;
        this.cache = cache;
        this.directIo = directIo;
        this.manifest = opened.manifest();
        Version v = opened.version();
        this.nextFileNumber = new AtomicLong(firstFreeFileNumber);
        this.firstNewFileNumber = firstFreeFileNumber;
        this.nextRunId = new AtomicLong(v.nextRunId());
    }

    /**
     * Recovers the last installed version of the tree in {@code dir} (or creates an empty tree). With
     * {@code removeOrphans} false the directory is only read: the caller runs {@link #removeOrphans}
     * once it knows the open as a whole succeeded.
     */
    static VersionSet open(String treeName, FileSystem fs, Path dir, BufferCache cache, IoStatistics io, boolean directIo,
                           long manifestRotateBytes, boolean removeOrphans) throws IOException {
        Manifest.Opened opened = Manifest.open(fs, dir, io, manifestRotateBytes);
        // Past every table file present, not only the manifest's next number: a crashed flush may
        // have left a file under a number the manifest never recorded, and while its removal waits
        // (removeOrphans false) a new table must not collide with it.
        long firstFree = opened.version().nextFileNumber();
        for (String name : fs.list(dir)) {
            firstFree = Math.max(firstFree, tableNumber(name) + 1);
        }
        VersionSet set = new VersionSet(treeName, fs, dir, cache, directIo, opened, firstFree);
        try {
            Version v = opened.version();
            for (TableMeta t : v.allTables()) {
                if (!fs.exists(TableFiles.path(dir, t.fileNumber()))) {
                    throw new CorruptManifestException(dir.resolve(ManifestFormat.manifestName(opened.manifest().number())), -1,
                            "it lists table " + TableFiles.name(t.fileNumber()) + ", which is missing from " + dir);
                }
                set.openReader(t, IoPurpose.LOG); // recovery metadata, read with the manifest
            }
            set.install(v);
            if (removeOrphans) {
                set.removeOrphans();
            }
        } catch (IOException | RuntimeException e) {
            set.close();
            throw e;
        }
        LOG.info("tree {}: opened {} with {} tables in {} levels after replaying {} manifest edits{}", treeName, dir,
                opened.version().allTables().size(), opened.version().levelCount(), opened.editsReplayed(),
                opened.droppedTail() ? " (an unfinished append left out)" : "");
        return set;
    }

    /**
     * Deletes files no installed version refers to: partial outputs of a crashed flush or merge, old
     * manifests. A manifest other than the one {@code CURRENT} names is provably obsolete: an older
     * one was superseded by a compaction whose snapshot was synced before {@code CURRENT} switched,
     * and a newer one is what an interrupted compaction left before the switch, holding only a
     * snapshot of a version the live manifest also holds (no edit is appended to a manifest before
     * {@code CURRENT} names it; see {@link Manifest}). Runs only on a version read completely ({@link Manifest#open} refuses anything
     * else), and touches only names this tree writes; other files in the directory stay. Tables
     * numbered from the first number this instance allocates on are left alone: when this runs after
     * the open (a deferred cleanup), a flush or merge may be writing one. Serialized with
     * {@link #logAndApply}, so a manifest rollover is never half seen.
     */
    synchronized void removeOrphans() throws IOException {
        Set<String> live = new HashSet<>(manifest.liveFileNames());
        for (TableMeta t : current.allTables()) {
            live.add(TableFiles.name(t.fileNumber()));
        }
        for (String name : fs.list(dir)) {
            boolean table = name.endsWith(TableFiles.SUFFIX) || name.endsWith(TableFiles.TMP_SUFFIX);
            if (table && tableNumber(name) >= firstNewFileNumber) {
                continue;
            }
            boolean ours = table || name.startsWith(ManifestFormat.MANIFEST_PREFIX) || name.equals(ManifestFormat.CURRENT + ".tmp");
            if (ours && !live.contains(name)) {
                LOG.info("tree {}: removing orphan file {}", treeName, name);
                fs.delete(dir.resolve(name));
            }
        }
    }

    /** The file number of a table or table temporary file name, or -1. */
    private static long tableNumber(String name) {
        String base = name.endsWith(TableFiles.TMP_SUFFIX)
                ? name.substring(0, name.length() - TableFiles.TMP_SUFFIX.length()) + TableFiles.SUFFIX : name;
        return TableFiles.parse(base);
    }

    Version current() {
        return current;
    }

    /**
     * The current version with a reference taken for the caller, who must {@link Version#unref()} it.
     * Lock-free: {@link #logAndApply} may replace and release the version between the read of
     * {@link #current} and the reference, in which case the newer one is read again.
     */
    Version acquireCurrent() {
        for (int attempt = 0; ; attempt++) {
            Version v = current;
            if (v.tryRef()) {
                return v;
            }
            Backoff.pause(attempt);
        }
    }

    long newFileNumber() {
        return nextFileNumber.getAndIncrement();
    }

    long newRunId() {
        return nextRunId.getAndIncrement();
    }

    SSTableReader reader(long fileNumber) {
        SSTableReader r = readers.get(fileNumber);
        if (r == null) {
            throw new IllegalStateException("tree " + treeName + ": no open reader for table #" + fileNumber);
        }
        return r;
    }

    /**
     * Makes {@code edit} durable in the manifest, then installs the version it produces.
     *
     * @throws IOException if the manifest append or sync fails; the current version is then unchanged,
     *                     and the caller must treat the tree as failed for writes
     */
    synchronized Version logAndApply(VersionEdit edit, IoPurpose purpose) throws IOException {
        return logAndApply(v -> edit, purpose);
    }

    /**
     * Like {@link #logAndApply(VersionEdit, IoPurpose)}, with the edit computed from the current
     * version while no other edit can intervene (flush placement and merge outputs depend on the
     * version they land in).
     *
     * @param purpose what the footer reads of the tables the edit adds are counted as (FLUSH or MERGE)
     */
    synchronized Version logAndApply(java.util.function.Function<Version, VersionEdit> editFor, IoPurpose purpose) throws IOException {
        if (closed) {
            throw new IllegalStateException("tree " + treeName + " is closed");
        }
        VersionEdit edit = editFor.apply(current);
        edit.setNextFileNumber(nextFileNumber.get()).setNextRunId(nextRunId.get());
        Version base = current;
        Version next = new VersionBuilder(base).apply(edit).build();
        for (TableMeta t : edit.addedTables()) {
            openReader(t, purpose);
        }
        manifest.append(edit, base);
        install(next);
        return next;
    }

    /** Pages of this tree's tables that queries have read from disk since the tree opened. */
    long queryPagesRead() {
        return queryPagesRead.sum();
    }

    private void openReader(TableMeta t, IoPurpose purpose) throws IOException {
        if (!readers.containsKey(t.fileNumber())) {
            readers.put(t.fileNumber(), SSTableReader.open(fs, TableFiles.path(dir, t.fileNumber()), cache, directIo, purpose,
                    queryPagesRead));
        }
    }

    /** Requires: monitor held, or called from open. */
    private void install(Version next) {
        for (TableMeta t : next.allTables()) {
            versionsPerTable.merge(t.fileNumber(), 1, Integer::sum);
        }
        next.onRelease(this::released);
        Version old = current;
        current = next;
        if (old != null) {
            old.unref();
        }
    }

    /** Called when the last reference to a version goes. */
    private void released(Version v) {
        synchronized (this) {
            for (TableMeta t : v.allTables()) {
                int left = versionsPerTable.merge(t.fileNumber(), -1, Integer::sum);
                if (left == 0) {
                    versionsPerTable.remove(t.fileNumber());
                    SSTableReader r = readers.remove(t.fileNumber());
                    try {
                        if (r != null) {
                            addBloom(retiredBloom, r);
                            r.close();
                        }
                        if (!closed) {
                            fs.delete(TableFiles.path(dir, t.fileNumber()));
                        }
                    } catch (IOException e) {
                        LOG.warn("tree {}: could not delete obsolete table #{}: {}", treeName, t.fileNumber(), e.toString());
                    }
                }
            }
        }
    }

    private static void addBloom(long[] into, SSTableReader r) {
        into[0] += r.statistics().bloomProbes();
        into[1] += r.statistics().bloomNegatives();
        into[2] += r.statistics().bloomFalsePositives();
    }

    /** Bloom probes, negatives and false positives of every table this tree has read, live or gone. */
    synchronized long[] bloomStatistics() {
        long[] sum = retiredBloom.clone();
        for (SSTableReader r : readers.values()) {
            addBloom(sum, r);
        }
        return sum;
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        for (SSTableReader r : readers.values()) {
            r.close();
        }
        readers.clear();
        manifest.close();
    }
}
