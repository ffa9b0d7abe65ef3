package dev.breakwater.lsm.version;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tree's manifest: appends version edits durably and rebuilds the last installed version at open
 * (LevelDB's {@code VersionSet::LogAndApply} and {@code Recover}). Format: {@link ManifestFormat}.
 * When the manifest grows past its bound ({@link #rotationBound}), {@link #append} compacts it: it
 * writes a new manifest that opens with a snapshot of the current version, then switches
 * {@code CURRENT} to it atomically, so what an open replays stays proportional to the live
 * version, not to the tree's history.
 *
 * <p>What the writer guarantees, and what {@link ManifestReader} relies on: (1) one record at a
 * time, each written with a zero checksum field first (length and payload), synced, then its
 * checksum, synced, and acknowledged only then; so only the last record can be unfinished, and an
 * unfinished one has a zero or torn checksum field. (2) Bytes past the last complete record are cut off before the next record
 * is written. (3) {@code CURRENT} names a manifest only after that manifest's snapshot is synced.
 * (4) Edits are appended to a new manifest only after {@code CURRENT} names it (and the directory
 * is synced); until then they go to the old one, which stays in place: a failed or interrupted
 * compaction leaves {@code CURRENT} naming a complete manifest holding every acknowledged edit.
 * (5) A manifest is deleted only once {@code CURRENT} durably names a newer one.
 *
 * <p>Thread safety: not thread-safe; the version set serializes calls.
 */
public final class Manifest implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Manifest.class);

    private final FileSystem fs;
    private final Path dir;
    private final IoStatistics io;
    private final long rotateBytes;
    private long number;
    private StorageFile file;
    private long size;
    /** Set when a compaction failed after it may have switched CURRENT; every later append fails. */
    private Exception failure;
    /** Bytes of the live manifest's first record, the snapshot it starts with. */
    private long snapshotBytes;

    /**
     * A manifest is compacted once its edits since the snapshot exceed this many times the
     * snapshot's size (and {@link #MIN_ROTATION_BYTES}): replaying it then costs at most a fixed
     * multiple of reading the live version, whatever the tree's history, while compactions write
     * at most about one snapshot per {@code REPLAY_FACTOR} snapshots' worth of edits.
     */
    public static final int REPLAY_FACTOR = 4;
    /** Below this size a manifest is never compacted (a small tree's edits are cheap to replay). */
    public static final long MIN_ROTATION_BYTES = 64 << 10;

    private Manifest(FileSystem fs, Path dir, IoStatistics io, long rotateBytes) {
        this.fs = fs;
        this.dir = dir;
        this.io = io;
        this.rotateBytes = rotateBytes;
    }

    /**
     * The recovered version and the open manifest to append to.
     *
     * @param droppedTail true if an unfinished, never-acknowledged append after the last record was
     *                    left out (see {@link ManifestReader}); the next append cuts it off
     */
    public record Opened(Manifest manifest, Version version, int editsReplayed, boolean droppedTail) {
    }

    /**
     * Opens the manifest in {@code dir}, creating an empty tree if the directory holds none.
     *
     * <p>Refuses, with a {@link CorruptManifestException} and without changing any file, whatever
     * it cannot read completely: a damaged record in the synced part of the manifest, a
     * {@code CURRENT} that is missing while tables or a manifest with tables exist, or one that
     * names a missing manifest.
     *
     * @param rotateBytes compact into a new manifest file once the current one is larger than this,
     *                    or earlier by the bound relative to the snapshot ({@link #rotationBound})
     */
    public static Opened open(FileSystem fs, Path dir, IoStatistics io, long rotateBytes) throws IOException {
        fs.createDirectories(dir);
        Manifest m = new Manifest(fs, dir, io, rotateBytes);
        Path current = dir.resolve(ManifestFormat.CURRENT);
        if (!fs.exists(current)) {
            checkNeverCreated(fs, dir, io);
            Version empty = Version.empty();
            m.startNewFile(1, empty);
            return new Opened(m, empty, 0, false);
        }
        String name = readCurrent(fs, current);
        long number;
        try {
            number = Long.parseLong(name.substring(ManifestFormat.MANIFEST_PREFIX.length()));
        } catch (RuntimeException e) {
            throw new CorruptManifestException(current, -1, "CURRENT names '" + name + "', not a manifest file");
        }
        Path path = dir.resolve(name);
        if (!fs.exists(path)) {
            throw new CorruptManifestException(current, -1, "CURRENT names " + name + ", which does not exist");
        }
        StorageFile f = fs.open(path, OpenOption.READ, OpenOption.WRITE);
        ManifestReader.Result r;
        try {
            r = ManifestReader.read(f, path);
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        io.recordRead(IoPurpose.LOG, 0, r.fileSize());
        if (r.droppedTail()) {
            LOG.info("manifest {}: left out the unfinished append at offset {} ({} bytes, never acknowledged); "
                    + "replayed {} edits", path, r.validEnd(), r.fileSize() - r.validEnd(), r.edits());
        }
        m.number = number;
        m.file = f;
        m.size = r.validEnd();
        m.snapshotBytes = r.snapshotBytes();
        return new Opened(m, r.version(), r.edits(), r.droppedTail());
    }

    /**
     * Without {@code CURRENT}, the directory is a new tree only if its creation never completed:
     * no tables, and no manifest but a first one whose version holds nothing. {@code CURRENT} is
     * written last at creation and replaced atomically afterwards, so its absence anywhere else is
     * damage, not an empty tree.
     */
    private static void checkNeverCreated(FileSystem fs, Path dir, IoStatistics io) throws IOException {
        Path current = dir.resolve(ManifestFormat.CURRENT);
        for (String name : fs.list(dir)) {
            if (name.endsWith(".sst")) {
                throw new CorruptManifestException(current, -1, "CURRENT is missing but the directory holds table " + name
                        + "; restore CURRENT (one line naming the live MANIFEST-n file, then a newline)");
            }
            if (name.startsWith(ManifestFormat.MANIFEST_PREFIX)) {
                Path path = dir.resolve(name);
                boolean firstAndEmpty = name.equals(ManifestFormat.manifestName(1)) && holdsNothing(fs, path);
                if (!firstAndEmpty) {
                    throw new CorruptManifestException(current, -1, "CURRENT is missing but the directory holds manifest " + name
                            + "; restore CURRENT (one line naming the live MANIFEST-n file, then a newline)");
                }
            }
        }
    }

    /** True if the manifest at {@code path} has no complete record or records an empty version. */
    private static boolean holdsNothing(FileSystem fs, Path path) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            Version v = ManifestReader.read(f, path).version();
            return v.allTables().isEmpty() && v.lastFlushedLsn() == Version.empty().lastFlushedLsn();
        } catch (CorruptManifestException e) {
            return e.offset() == 0 && e.getMessage().contains("no complete record");
        }
    }

    /**
     * What replaying a manifest file found, without changing anything.
     *
     * @param file       the live manifest file ({@code CURRENT} names it)
     * @param version    the version its good records build
     * @param edits      good records applied
     * @param goodBytes  bytes of the good records: where a torn tail starts
     * @param fileBytes  size of the file
     * @param tornTail   true if the file ends in an unfinished, never-acknowledged append (what the next append cuts off)
     */
    public record Replayed(Path file, Version version, int edits, long goodBytes, long fileBytes, boolean tornTail) {
    }

    /**
     * Reads the manifest in {@code dir} without modifying anything (for inspection tools): opens
     * files read-only, never truncates a torn tail, never creates a manifest.
     *
     * @throws java.nio.file.NoSuchFileException if {@code dir} has no {@code CURRENT}
     * @throws CorruptManifestException if the synced part of the manifest is damaged (file and offset)
     * @throws IOException if {@code CURRENT} or the manifest it names is missing
     */
    public static Replayed read(FileSystem fs, Path dir) throws IOException {
        Path current = dir.resolve(ManifestFormat.CURRENT);
        if (!fs.exists(current)) {
            throw new java.nio.file.NoSuchFileException(current.toString(), null, "tree directory has no CURRENT file");
        }
        String name = readCurrent(fs, current);
        Path path = dir.resolve(name);
        if (!name.startsWith(ManifestFormat.MANIFEST_PREFIX) || !fs.exists(path)) {
            throw new IOException("CURRENT in " + dir + " names '" + name + "', which is not an existing manifest file");
        }
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            ManifestReader.Result r = ManifestReader.read(f, path);
            return new Replayed(path, r.version(), r.edits(), r.validEnd(), r.fileSize(), r.droppedTail());
        }
    }

    private static String readCurrent(FileSystem fs, Path current) throws IOException {
        try (StorageFile f = fs.open(current, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(256, f.size()));
            f.read(0, b);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
            if (!s.endsWith("\n")) {
                throw new CorruptManifestException(current, -1, "CURRENT is incomplete: '" + s + "'");
            }
            return s.trim();
        }
    }

    /** Number of the live manifest file. */
    public long number() {
        return number;
    }

    /** Names of the files that belong to the manifest (CURRENT and the live manifest). */
    public List<String> liveFileNames() {
        return List.of(ManifestFormat.CURRENT, ManifestFormat.manifestName(number));
    }

    /**
     * Appends {@code edit} and syncs it; on return the edit survives a crash. If the manifest has grown
     * past its limit, first rolls over to a new file that starts with a snapshot of {@code base}.
     *
     * @param base the version the edit applies to (used only for a rollover snapshot)
     */
    public void append(VersionEdit edit, Version base) throws IOException {
        if (failure != null) {
            throw new IOException("manifest in " + dir + " refuses appends: a compaction failed after switching CURRENT "
                    + "(reopen the tree)", failure);
        }
        if (size > rotationBound()) {
            startNewFile(number + 1, base);
        }
        writeRecord(edit.encode());
        file.sync();
    }

    /**
     * The size beyond which the manifest is compacted: {@code rotateBytes}, or earlier, once the
     * edits after the snapshot exceed {@link #REPLAY_FACTOR} times the snapshot and the file is
     * past {@link #MIN_ROTATION_BYTES}.
     */
    public long rotationBound() {
        return Math.min(rotateBytes, Math.max(MIN_ROTATION_BYTES, snapshotBytes * (REPLAY_FACTOR + 1)));
    }

    /** Bytes of the live manifest file. */
    public long sizeBytes() {
        return size;
    }

    /**
     * Appends one record in two synced steps: length, a zero checksum field and the payload first,
     * then the checksum (the commit point). {@link ManifestReader} relies on this order to tell an
     * unfinished append (checksum field zero or torn) from damage. The caller syncs after it.
     */
    private void writeRecord(byte[] payload) throws IOException {
        size = writeRecord(file, size, payload, io);
    }

    /** {@link #writeRecord(byte[])} into {@code f} at {@code at}; returns the end of the record. */
    private static long writeRecord(StorageFile f, long at, byte[] payload, IoStatistics io) throws IOException {
        CRC32C c = new CRC32C();
        c.update(payload);
        int n = ManifestFormat.RECORD_HEADER + payload.length;
        ByteBuffer record = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        record.putInt(payload.length).putInt(0).put(payload).flip();
        ByteBuffer checksum = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) c.getValue()).flip();
        if (f.size() > at) { // a dropped tail, or what a failed append left
            f.truncate(at);
        }
        f.write(at, record);
        f.sync();
        f.write(at + 4, checksum);
        io.recordWrite(IoPurpose.LOG, 0, n);
        return at + n;
    }

    /**
     * Compacts the manifest: writes a new manifest holding a snapshot of {@code version} and syncs
     * it, then points CURRENT at it (write {@code CURRENT.tmp}, sync, rename, sync the directory),
     * and only then appends to it and deletes the old one. If anything fails before the rename, the
     * old manifest stays live and complete (the new file is an orphan that the next open removes);
     * if the rename happened but its directory sync failed, both files stay, since either may be
     * what CURRENT names after a crash.
     */
    private void startNewFile(long newNumber, Version version) throws IOException {
        Path path = dir.resolve(ManifestFormat.manifestName(newNumber));
        StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.READ, OpenOption.TRUNCATE);
        long newSize;
        boolean renamed = false;
        try {
            newSize = writeRecord(f, 0, snapshotEdit(version).encode(), io);
            f.sync();
            Path tmp = dir.resolve(ManifestFormat.CURRENT + ".tmp");
            try (StorageFile c = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
                c.write(0, ByteBuffer.wrap((ManifestFormat.manifestName(newNumber) + "\n").getBytes(StandardCharsets.UTF_8)));
                c.sync();
            }
            fs.rename(tmp, dir.resolve(ManifestFormat.CURRENT)); // atomic: a failed rename did not happen
            renamed = true;
            fs.syncDirectory(dir);
        } catch (IOException | RuntimeException e) {
            f.close();
            if (renamed) {
                // CURRENT may name either file now: appending to either could be lost. Refuse.
                failure = e;
            }
            throw e;
        }
        StorageFile old = file;
        long oldNumber = number;
        file = f;
        size = newSize;
        snapshotBytes = newSize;
        number = newNumber;
        if (old != null) {
            old.close();
            fs.delete(dir.resolve(ManifestFormat.manifestName(oldNumber)));
        }
    }

    /** An edit that rebuilds {@code v} from {@link Version#empty()}. */
    static VersionEdit snapshotEdit(Version v) {
        VersionEdit e = new VersionEdit();
        int emptyLevels = Version.empty().levelCount();
        for (int i = emptyLevels; i < v.levelCount(); i++) {
            e.insertLevel(i);
        }
        for (int i = v.levelCount(); i < emptyLevels; i++) {
            e.removeLevel(v.levelCount());
        }
        for (int level = 0; level < v.levelCount(); level++) {
            for (Run r : v.level(level)) {
                e.newRun(level, r.id(), false);
                for (TableMeta t : r.tables()) {
                    e.addTable(level, r.id(), t);
                }
            }
        }
        e.setLastFlushedLsn(v.lastFlushedLsn()).setNextFileNumber(v.nextFileNumber()).setNextRunId(v.nextRunId());
        return e;
    }

    @Override
    public void close() throws IOException {
        if (file != null) {
            file.close();
            file = null;
        }
    }
}
