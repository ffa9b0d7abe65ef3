package dev.breakwater.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.txn.StoredCatalog;
import dev.breakwater.txn.log.SegmentFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A data directory as the tool sees it, read through the engine's own readers and never modified:
 * the catalog ({@link StoredCatalog}), each tree's manifest ({@link Manifest#read}), the log's
 * segment files ({@link SegmentFiles}) and the checkpoint.
 *
 * <p>Thread safety: immutable after {@link #open}; the reads it offers are safe from one thread.
 */
final class DataDirectory {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final FileSystem fs;
    private final StoredCatalog catalog;

    private DataDirectory(Path dir, FileSystem fs, StoredCatalog catalog) {
        this.dir = dir;
        this.fs = fs;
        this.catalog = catalog;
    }

    /**
     * Reads the catalog of {@code dir}.
     *
     * @throws NoSuchFileException if {@code dir} is not a directory
     */
    static DataDirectory open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "not a directory");
        }
        FileSystem fs = RealFileSystem.withoutDirectIo();
        return new DataDirectory(dir, fs, StoredCatalog.read(fs, dir));
    }

    Path dir() {
        return dir;
    }

    FileSystem fs() {
        return fs;
    }

    StoredCatalog catalog() {
        return catalog;
    }

    /** False if the directory has no catalog file: not a data directory, or no dataset was ever created. */
    boolean hasCatalog() {
        return Files.exists(dir.resolve(StoredCatalog.CATALOG_FILE));
    }

    /** The manifest of the tree in {@code treeDir}, replayed read-only. */
    Manifest.Replayed manifest(Path treeDir) throws IOException {
        return Manifest.read(fs, treeDir);
    }

    Path logDir() {
        return StoredCatalog.logDirectory(dir);
    }

    /** First LSNs of the log's segments, ascending (empty if there is no log yet). */
    long[] segments() throws IOException {
        return fs.exists(logDir()) ? SegmentFiles.list(fs, logDir()) : new long[0];
    }

    /** LSN just past the last byte of the newest segment (0 if there is no log). */
    long logEndLsn(long[] segments) throws IOException {
        if (segments.length == 0) {
            return 0;
        }
        long last = segments[segments.length - 1];
        return last + fs.size(SegmentFiles.path(logDir(), last));
    }

    Path checkpointFile() {
        return dir.resolve(StoredCatalog.CHECKPOINT_FILE);
    }

    /**
     * The checkpoint's JSON, or null if the engine has not written one.
     *
     * @throws IOException if it exists but is not JSON
     */
    JsonNode checkpoint() throws IOException {
        String body = StoredCatalog.checkedCheckpointBody(RealFileSystem.withoutDirectIo(), dir);
        return body == null ? null : JSON.readTree(body);
    }

    /** {@code p} relative to the data directory, for messages. */
    String rel(Path p) {
        return p.startsWith(dir) ? dir.relativize(p).toString() : p.toString();
    }
}
