package dev.breakwater.common.io;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Set;

/**
 * A lock file of {@link RealFileSystem}: an exclusive {@link FileChannel#tryLock()} on the file,
 * which holds against other processes, plus a registry of the files this JVM holds.
 *
 * <p>Why the registry: operating-system locks (POSIX {@code fcntl}) belong to the process, and
 * closing <em>any</em> descriptor of a locked file releases the process's lock on it. So a second
 * lock attempt in the same JVM must never open (and then close) the file: it is refused from the
 * registry before the file is touched. An {@link OverlappingFileLockException} (a lock taken on the
 * file by other code in this JVM, outside this registry) maps to the same {@link FileLockedException};
 * closing the probing channel then may drop that other code's lock, which only it can avoid.
 *
 * <p>Invariants: (1) a file's key is in {@link #HELD} exactly while an instance holds its lock;
 * (2) the channel stays open while the lock is held.
 *
 * <p>Thread safety: {@link #acquire} and {@link #close} serialize on {@link #HELD}.
 */
final class RealLockFile implements LockFile {

    /** Keys ({@link BasicFileAttributes#fileKey()} or real path) of the files this JVM holds locked. */
    @GuardedBy("HELD")
    private static final Set<Object> HELD = new HashSet<>();

    private final Path path;
    private final Object key;
    private final FileChannel channel;
    private final FileLock lock;
    @GuardedBy("HELD")
    private boolean closed;

    private RealLockFile(Path path, Object key, FileChannel channel, FileLock lock) {
        this.path = path;
        this.key = key;
        this.channel = channel;
        this.lock = lock;
    }

    static LockFile acquire(Path path) throws IOException {
        synchronized (HELD) {
            if (!Files.exists(path)) {
                // Create without locking, so that the key below names the file that will be locked.
                try (FileChannel ignored = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    // created
                }
            }
            Object key = keyOf(path);
            if (HELD.contains(key)) {
                throw new FileLockedException(path, ProcessHandle.current().pid());
            }
            FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw RealFileSystem.withPath(e, "lock", path);
            }
            if (lock == null) {
                long holder = readHolder(channel);
                channel.close();
                throw new FileLockedException(path, holder);
            }
            try {
                byte[] record = LockFile.holderRecord();
                channel.truncate(0);
                channel.write(ByteBuffer.wrap(record), 0);
                channel.force(true);
            } catch (IOException e) {
                lock.release();
                channel.close();
                throw RealFileSystem.withPath(e, "write holder of lock", path);
            }
            HELD.add(key);
            return new RealLockFile(path, key, channel, lock);
        }
    }

    private static Object keyOf(Path path) throws IOException {
        Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        return key != null ? key : path.toRealPath();
    }

    private static long readHolder(FileChannel channel) {
        try {
            ByteBuffer b = ByteBuffer.allocate(32);
            channel.read(b, 0);
            return LockFile.parseHolder(b.array(), b.position());
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        synchronized (HELD) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                lock.release();
            } finally {
                channel.close();
                HELD.remove(key);
            }
        }
    }
}
