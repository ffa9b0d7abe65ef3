package dev.breakwater.txn;

import dev.breakwater.common.io.FileLockedException;
import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.LockFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One engine's hold on its data directory: the directory is recognised as Breakwater's (by its
 * {@link DataDirectoryMarker}) and locked ({@code LOCK}, see {@link FileSystem#lock}) from
 * {@link #acquire} until {@link #close}.
 *
 * <p>Which directories are opened:
 * <ol>
 *   <li>one with the marker (checked, then used);</li>
 *   <li>a missing or empty one (apart from a lock file or a marker being written): created, the
 *       marker written right after the lock is taken;</li>
 *   <li>one written before markers existed: only engine file names at the top, including a
 *       {@code catalog.json}; the marker is added.</li>
 * </ol>
 * Any other directory is refused with a {@link DataDirectoryException} before anything is written
 * to it, so the engine never puts files into, or deletes files from, a directory of the user's.
 * A second holder is refused with a {@link DirectoryInUseException} naming the holder's pid.
 *
 * <p>Thread safety: {@link #close} is idempotent and may be called from any thread.
 */
final class DataDirectoryGuard implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DataDirectoryGuard.class);

    static final String LOCK = "LOCK";
    /** Names the engine writes at the top of its data directory. */
    private static final Set<String> ENGINE_NAMES = Set.of(LOCK, DataDirectoryMarker.FILE, DataDirectoryMarker.TMP,
            Catalog.FILE, Catalog.FILE + ".tmp", CheckpointFile.NAME, CheckpointFile.NAME + ".tmp",
            DatasetDirectory.ROOT, "log");
    /** Names that may be in a directory the engine is about to create its files in. */
    private static final Set<String> NEW_DIRECTORY_NAMES = Set.of(LOCK, DataDirectoryMarker.TMP);

    private final LockFile lock;

    private DataDirectoryGuard(LockFile lock) {
        this.lock = lock;
    }

    /** Recognises and locks {@code dir}, creating it if it does not exist. */
    static DataDirectoryGuard acquire(FileSystem fs, Path dir) throws IOException {
        fs.createDirectories(dir);
        boolean marked = recognise(fs, dir);
        LockFile lock;
        try {
            lock = fs.lock(dir.resolve(LOCK));
        } catch (FileLockedException e) {
            throw new DirectoryInUseException("data directory " + dir + " is already open: " + e.getMessage()
                    + "; close the engine that holds it first (one engine per directory)", e.holderPid(), e);
        }
        try {
            // Recognise again under the lock: another opener may have changed the directory meanwhile.
            marked = recognise(fs, dir);
            if (!marked) {
                DataDirectoryMarker.write(fs, dir);
                LOG.info("marked {} as a Breakwater data directory ({})", dir, DataDirectoryMarker.FILE);
            }
            return new DataDirectoryGuard(lock);
        } catch (IOException | RuntimeException | Error e) {
            try {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Returns true if {@code dir} carries a valid marker, false if it may be marked (empty, or an
     * unmarked engine directory), and throws if it is someone else's.
     */
    private static boolean recognise(FileSystem fs, Path dir) throws IOException {
        List<String> names = fs.list(dir);
        if (names.contains(DataDirectoryMarker.FILE)) {
            DataDirectoryMarker.check(fs, dir);
            return true;
        }
        List<String> foreign = new ArrayList<>();
        boolean onlyNew = true;
        for (String name : names) {
            if (!NEW_DIRECTORY_NAMES.contains(name)) {
                onlyNew = false;
            }
            if (!ENGINE_NAMES.contains(name)) {
                foreign.add(name);
            }
        }
        if (onlyNew || (foreign.isEmpty() && names.contains(Catalog.FILE))) {
            return false;
        }
        if (foreign.isEmpty()) {
            throw new DataDirectoryException("directory " + dir + " holds " + describe(names) + " but neither a "
                    + DataDirectoryMarker.FILE + " marker nor " + Catalog.FILE + "; if it is a Breakwater data directory whose "
                    + Catalog.FILE + " was lost, restore " + Catalog.FILE + "; otherwise move these away or open a new directory");
        }
        throw new DataDirectoryException("directory " + dir + " is not a Breakwater data directory: it has no "
                + DataDirectoryMarker.FILE + " marker and holds " + describe(foreign) + "; open the engine on a new or empty "
                + "directory, or move these files away (the engine neither adds files to nor deletes files from a directory "
                + "it did not create)");
    }

    private static String describe(List<String> names) {
        int shown = Math.min(5, names.size());
        String list = String.join(", ", names.subList(0, shown));
        return names.size() > shown ? list + " and " + (names.size() - shown) + " more" : list;
    }

    /** Releases the directory lock. Idempotent. */
    @Override
    public void close() throws IOException {
        lock.close();
    }
}
