package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link FileSystem} on the operating system's disks, built on {@link FileChannel}.
 *
 * <p>Direct I/O: a file opened with {@link OpenOption#DIRECT} is opened with
 * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} (O_DIRECT). Whether the platform supports it is
 * learned on the first such open: if the option is rejected the file is reopened with buffered I/O,
 * one warning is logged, and every later DIRECT open of this file system is buffered without trying
 * again (the decision is per file-system instance, not per mount). Either way a file opened with DIRECT checks that buffers, positions and lengths are aligned
 * to {@link #directIoAlignment()} (so misaligned code fails on every platform, not only on Linux),
 * and {@link StorageFile#isDirect()} says whether the page cache is really bypassed.
 *
 * <p>Locks: {@link #lock} is an operating-system file lock ({@link RealLockFile}), exclusive against
 * other processes and, through a JVM-wide registry, against other callers in this JVM.
 *
 * <p>Errors: every exception names the path it concerns. Exceptions from {@link Files} already do;
 * exceptions from a {@link FileChannel} are wrapped in an {@link IOException} that does.
 *
 * <p>Invariants: (1) {@code directIoSupport} moves at most once from {@code UNKNOWN} to
 * {@code SUPPORTED} or {@code UNSUPPORTED} and never changes afterwards; (2) the fallback warning
 * is logged at most once per instance.
 *
 * <p>Thread safety: safe for concurrent use; the only mutable state is {@code directIoSupport},
 * which changes only by compare-and-set.
 */
public final class RealFileSystem implements FileSystem {

    private static final Logger LOG = LoggerFactory.getLogger(RealFileSystem.class);

    /**
     * Directories cannot be opened as files on Windows, so their entries cannot be forced there
     * (NTFS journals metadata itself). Everywhere else a failed directory sync is a real error.
     */
    private static final boolean CAN_OPEN_DIRECTORIES =
            !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    /** What this file system has learned about O_DIRECT. */
    enum DirectIoSupport { UNKNOWN, SUPPORTED, UNSUPPORTED, DISABLED }

    private final int alignment;
    private final java.nio.file.OpenOption directOption;
    private final AtomicReference<DirectIoSupport> directIoSupport = new AtomicReference<>();

    RealFileSystem(boolean directIoEnabled, int alignment, java.nio.file.OpenOption directOption) {
        if (alignment <= 0 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("direct I/O alignment must be a power of two: " + alignment);
        }
        this.alignment = alignment;
        this.directOption = directOption;
        this.directIoSupport.set(directIoEnabled ? DirectIoSupport.UNKNOWN : DirectIoSupport.DISABLED);
    }

    /** A file system that honours {@link OpenOption#DIRECT} where the platform supports it. */
    public static RealFileSystem create() {
        return new RealFileSystem(true, 4096, com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }

    /**
     * A file system that ignores the page-cache bypass of {@link OpenOption#DIRECT}: files are always
     * buffered (alignment is still checked for files opened with DIRECT).
     */
    public static RealFileSystem withoutDirectIo() {
        return new RealFileSystem(false, 4096, com.sun.nio.file.ExtendedOpenOption.DIRECT);
    }

    @Override
    public StorageFile open(Path path, OpenOption... options) throws IOException {
        OpenMode mode = OpenMode.of(options);
        Set<java.nio.file.OpenOption> nio = nioOptions(mode);
        DirectIoSupport support = directIoSupport.get();
        if (!mode.direct() || support == DirectIoSupport.UNSUPPORTED || support == DirectIoSupport.DISABLED) {
            return new RealStorageFile(path, FileChannel.open(path, nio), mode.writable(), false, mode.direct(),
                    alignment);
        }
        boolean existedBefore = support == DirectIoSupport.UNKNOWN && Files.exists(path);
        Set<java.nio.file.OpenOption> withDirect = new HashSet<>(nio);
        withDirect.add(directOption);
        FileChannel channel;
        try {
            channel = FileChannel.open(path, withDirect);
        } catch (UnsupportedOperationException | IOException e) {
            // A subclass of FileSystemException (no such file, exists, access denied) is about the
            // file, not O_DIRECT; an unsupported O_DIRECT shows up as UnsupportedOperationException or
            // as a plain FileSystemException ("Invalid argument", EINVAL).
            boolean aboutTheFile = e instanceof FileSystemException && e.getClass() != FileSystemException.class;
            if (support == DirectIoSupport.SUPPORTED || aboutTheFile) {
                throw withPath(e, "direct open", path);
            }
            channel = openAfterDirectFailed(path, mode, nio, existedBefore);
            markUnsupported(path, e);
            return new RealStorageFile(path, channel, mode.writable(), false, true, alignment);
        }
        directIoSupport.compareAndSet(DirectIoSupport.UNKNOWN, DirectIoSupport.SUPPORTED);
        return new RealStorageFile(path, channel, mode.writable(), true, true, alignment);
    }

    /**
     * The buffered retry after an O_DIRECT open failed. If it fails as well, the cause was not
     * O_DIRECT and its exception is the caller's. Some kernels create the file before rejecting
     * O_DIRECT, so a CREATE_NEW retry accepts a file that did not exist before the first attempt.
     */
    private static FileChannel openAfterDirectFailed(
            Path path, OpenMode mode, Set<java.nio.file.OpenOption> nio, boolean existedBefore) throws IOException {
        if (mode.createNew() && !existedBefore && Files.exists(path)) {
            Set<java.nio.file.OpenOption> retry = new HashSet<>(nio);
            retry.remove(StandardOpenOption.CREATE_NEW);
            retry.add(StandardOpenOption.CREATE);
            return FileChannel.open(path, retry);
        }
        return FileChannel.open(path, nio);
    }

    private void markUnsupported(Path path, Exception cause) {
        if (directIoSupport.compareAndSet(DirectIoSupport.UNKNOWN, DirectIoSupport.UNSUPPORTED)) {
            LOG.warn("Direct I/O (O_DIRECT) is not supported here (opening {} failed: {}); files opened "
                    + "with DIRECT use buffered I/O through the page cache from now on", path, cause.toString());
        }
    }

    private static Set<java.nio.file.OpenOption> nioOptions(OpenMode mode) {
        Set<java.nio.file.OpenOption> nio = new HashSet<>();
        nio.add(StandardOpenOption.READ);
        if (mode.writable()) {
            nio.add(StandardOpenOption.WRITE);
        }
        if (mode.createNew()) {
            nio.add(StandardOpenOption.CREATE_NEW);
        } else if (mode.create()) {
            nio.add(StandardOpenOption.CREATE);
        }
        if (mode.truncate()) {
            nio.add(StandardOpenOption.TRUNCATE_EXISTING);
        }
        return nio;
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        // ATOMIC_MOVE is rename(2) on Unix, which replaces an existing target atomically.
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public boolean delete(Path path) throws IOException {
        return Files.deleteIfExists(path);
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(null);
        return names;
    }

    @Override
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        if (!CAN_OPEN_DIRECTORIES) {
            if (!Files.isDirectory(dir)) {
                throw new java.nio.file.NotDirectoryException(dir.toString());
            }
            return;
        }
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            throw withPath(e, "sync directory", dir);
        }
    }

    @Override
    public LockFile lock(Path path) throws IOException {
        return RealLockFile.acquire(path);
    }

    @Override
    public int directIoAlignment() {
        return alignment;
    }

    /** What this file system has learned about O_DIRECT (for tests and diagnostics). */
    DirectIoSupport directIoSupport() {
        return directIoSupport.get();
    }

    /**
     * Returns an exception whose message names {@code path}: {@code e} itself when it already
     * does, otherwise an {@link IOException} wrapping it.
     */
    static IOException withPath(Exception e, String operation, Path path) {
        if (e instanceof FileSystemException fse && fse.getFile() != null) {
            return fse;
        }
        if (e instanceof IOException io && io.getMessage() != null && io.getMessage().contains(path.toString())) {
            return io;
        }
        String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new IOException(operation + " of " + path + " failed: " + detail, e);
    }
}
