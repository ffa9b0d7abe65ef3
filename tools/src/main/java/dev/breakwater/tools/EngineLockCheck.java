package dev.breakwater.tools;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps the tool off a data directory that an engine holds. An engine holds an exclusive
 * {@link FileChannel#lock} on {@code DIR/LOCK} for its lifetime and writes its pid into the file;
 * this check opens that file read-only (never creating it) and asks for a <em>shared</em> lock with
 * {@link FileChannel#tryLock(long, long, boolean)}. If the engine's exclusive lock is held, the
 * shared lock is refused and {@link #acquire} throws {@link HeldException} saying
 * "engine (pid N) holds DIR". Otherwise the shared lock is kept until {@link #close}, so that an
 * engine cannot take the directory while the tool reads it.
 *
 * <p>A directory without a {@code LOCK} file was last used by an engine that does not write one, or
 * by none: the check passes and holds nothing.
 *
 * <p>Invariants: (1) the lock file is never created, written or deleted; (2) while an instance is
 * open (not closed) with a lock file present, it holds a shared lock on it.
 *
 * <p>Thread safety: not thread-safe; one instance per command run.
 */
final class EngineLockCheck implements AutoCloseable {

    /** Name of the engine's lock file in the data directory. */
    static final String LOCK_FILE = "LOCK";

    private final FileChannel channel;
    private final FileLock lock;

    private EngineLockCheck(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Thrown when an engine holds the directory. */
    static final class HeldException extends IOException {
        private static final long serialVersionUID = 1L;

        HeldException(String message) {
            super(message);
        }
    }

    /**
     * Checks {@code dataDir} and, if no engine holds it, keeps a shared lock on its lock file until
     * {@link #close}.
     *
     * @throws HeldException if an engine (in this or another process) holds the lock
     */
    static EngineLockCheck acquire(Path dataDir) throws IOException {
        Path file = dataDir.resolve(LOCK_FILE);
        if (!Files.exists(file)) {
            return new EngineLockCheck(null, null);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        FileLock l;
        try {
            l = ch.tryLock(0, Long.MAX_VALUE, true);
        } catch (OverlappingFileLockException e) {
            l = null; // this JVM already holds a lock on the file (an engine opened in-process)
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        if (l == null) {
            String pid = holderPid(ch);
            ch.close();
            throw new HeldException("engine (pid " + pid + ") holds " + dataDir
                    + "; close it (or inspect a copy of the directory) and try again");
        }
        return new EngineLockCheck(ch, l);
    }

    /** The pid the lock file records, or "unknown" if it holds no number. */
    private static String holderPid(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(64, ch.size()));
            ch.read(b, 0);
            String text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).trim();
            return text.matches("\\d+") ? text : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }
}
