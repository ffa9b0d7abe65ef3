package dev.breakwater.lsm.version;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import java.io.EOFException;
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
 * When the manifest grows past a limit, {@link #append} starts a new one that opens with a snapshot
 * of the current version, then switches {@code CURRENT} atomically.
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

    private Manifest(FileSystem fs, Path dir, IoStatistics io, long rotateBytes) {
        this.fs = fs;
        this.dir = dir;
        this.io = io;
        this.rotateBytes = rotateBytes;
    }

    /** The recovered version and the open manifest to append to. */
    public record Opened(Manifest manifest, Version version, int editsReplayed, boolean tornTail) {
    }

    /**
     * Opens the manifest in {@code dir}, creating an empty tree if there is none.
     *
     * @param rotateBytes start a new manifest file once the current one is larger than this
     */
    public static Opened open(FileSystem fs, Path dir, IoStatistics io, long rotateBytes) throws IOException {
        fs.createDirectories(dir);
        Manifest m = new Manifest(fs, dir, io, rotateBytes);
        Path current = dir.resolve(ManifestFormat.CURRENT);
        if (!fs.exists(current)) {
            Version empty = Version.empty();
            m.startNewFile(1, empty);
            return new Opened(m, empty, 0, false);
        }
        String name = readCurrent(fs, current);
        long number;
        try {
            number = Long.parseLong(name.substring(ManifestFormat.MANIFEST_PREFIX.length()));
        } catch (RuntimeException e) {
            throw new IOException("CURRENT in " + dir + " names '" + name + "', not a manifest file");
        }
        Path path = dir.resolve(name);
        if (!fs.exists(path)) {
            throw new IOException("CURRENT in " + dir + " names " + name + ", which does not exist");
        }
        StorageFile f = fs.open(path, OpenOption.READ, OpenOption.WRITE);
        Replayed r;
        try {
            r = replay(f, path);
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        long pos = r.goodBytes();
        if (r.tornTail()) {
            LOG.warn("manifest {}: torn record at offset {} of {} bytes (crash during an append); truncating and continuing with {} edits",
                    path, pos, r.fileBytes(), r.edits());
            f.truncate(pos);
            f.sync();
        }
        io.recordRead(IoPurpose.LOG, 0, pos);
        m.number = number;
        m.file = f;
        m.size = pos;
        return new Opened(m, r.version(), r.edits(), r.tornTail());
    }

    /**
     * What replaying a manifest file found, without changing anything.
     *
     * @param file       the live manifest file ({@code CURRENT} names it)
     * @param version    the version its good records build
     * @param edits      good records applied
     * @param goodBytes  bytes of the good records: where a torn tail starts
     * @param fileBytes  size of the file
     * @param tornTail   true if bytes after the good records fail their checks (what {@link #open} truncates)
     */
    public record Replayed(Path file, Version version, int edits, long goodBytes, long fileBytes, boolean tornTail) {
    }

    /**
     * Reads the manifest in {@code dir} without modifying anything (for inspection tools): opens
     * files read-only, never truncates a torn tail, never creates a manifest.
     *
     * @throws java.nio.file.NoSuchFileException if {@code dir} has no {@code CURRENT}
     * @throws IOException if {@code CURRENT} or the manifest it names is missing or a good record does not apply
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
            return replay(f, path);
        }
    }

    /** Applies the records of {@code f} in order up to the end or the first record that fails its checks. */
    private static Replayed replay(StorageFile f, Path path) throws IOException {
        VersionBuilder builder = new VersionBuilder(Version.empty());
        long pos = 0;
        long fileSize = f.size();
        int edits = 0;
        boolean torn = false;
        ByteBuffer header = ByteBuffer.allocate(ManifestFormat.RECORD_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        while (pos < fileSize) {
            if (fileSize - pos < ManifestFormat.RECORD_HEADER) {
                torn = true;
                break;
            }
            header.clear();
            f.read(pos, header);
            int length = header.getInt(0);
            int crc = header.getInt(4);
            if (length < 0 || length > ManifestFormat.MAX_PAYLOAD || pos + ManifestFormat.RECORD_HEADER + length > fileSize) {
                torn = true;
                break;
            }
            ByteBuffer payload = ByteBuffer.allocate(length);
            f.read(pos + ManifestFormat.RECORD_HEADER, payload);
            CRC32C c = new CRC32C();
            c.update(payload.array(), 0, length);
            if ((int) c.getValue() != crc) {
                torn = true;
                break;
            }
            VersionEdit edit;
            try {
                edit = VersionEdit.decode(payload.array());
            } catch (IllegalArgumentException e) {
                throw new IOException("manifest " + path + " record at offset " + pos + " has a valid checksum but cannot be decoded: " + e.getMessage(), e);
            }
            try {
                builder.apply(edit);
            } catch (IllegalStateException e) {
                throw new IOException("manifest " + path + " record at offset " + pos + " does not apply: " + e.getMessage(), e);
            }
            pos += ManifestFormat.RECORD_HEADER + length;
            edits++;
        }
        return new Replayed(path, builder.build(), edits, pos, fileSize, torn);
    }

    private static String readCurrent(FileSystem fs, Path current) throws IOException {
        try (StorageFile f = fs.open(current, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(256, f.size()));
            f.read(0, b);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
            if (!s.endsWith("\n")) {
                throw new IOException("CURRENT file " + current + " is incomplete: '" + s + "'");
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
        if (size > rotateBytes) {
            startNewFile(number + 1, base);
        }
        writeRecord(edit.encode());
        file.sync();
    }

    private void writeRecord(byte[] payload) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(ManifestFormat.RECORD_HEADER + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C c = new CRC32C();
        c.update(payload);
        b.putInt(payload.length).putInt((int) c.getValue()).put(payload).flip();
        int n = b.remaining();
        file.write(size, b);
        size += n;
        io.recordWrite(IoPurpose.LOG, 0, n);
    }

    /** Writes a new manifest holding a snapshot of {@code version}, then points CURRENT at it. */
    private void startNewFile(long newNumber, Version version) throws IOException {
        Path path = dir.resolve(ManifestFormat.manifestName(newNumber));
        StorageFile f = fs.open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.READ, OpenOption.TRUNCATE);
        StorageFile old = file;
        long oldNumber = number;
        file = f;
        size = 0;
        number = newNumber;
        writeRecord(snapshotEdit(version).encode());
        f.sync();
        Path tmp = dir.resolve(ManifestFormat.CURRENT + ".tmp");
        try (StorageFile c = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            c.write(0, ByteBuffer.wrap((ManifestFormat.manifestName(newNumber) + "\n").getBytes(StandardCharsets.UTF_8)));
            c.sync();
        }
        fs.rename(tmp, dir.resolve(ManifestFormat.CURRENT));
        fs.syncDirectory(dir);
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
