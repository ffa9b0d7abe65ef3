package dev.breakwater.common.io;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-memory {@link FileSystem} that can simulate a crash (Pebble's crashable {@code MemFS}): it
 * tracks, besides the current state, what would survive power loss, and {@link #crashClone()}
 * returns a new file system holding only that.
 *
 * <p>Durability model, as on a POSIX file system that journals only what it was asked to:
 * <ul>
 *   <li>A file's bytes become durable when one of its handles calls {@link StorageFile#sync()}.
 *   <li>A file entry in a directory (created, renamed in or out, deleted) becomes durable when that
 *       directory is passed to {@link #syncDirectory}; it records all the directory's entries.
 *   <li>Directories themselves are a deliberate simplification: creating, renaming and deleting a
 *       directory is durable at once. Breakwater creates its directories at start-up; making every
 *       caller sync their parents would test nothing of interest.
 * </ul>
 *
 * <p>{@link #lock(Path)} is an in-process lock on a path (the file is created and holds the pid); a crash
 * clone holds no locks, as a restarted process would not.
 *
 * <p>Paths are made absolute and normalized, so {@code a/./b} and {@code /cwd/a/b} name the same
 * file. {@link OpenOption#DIRECT} is accepted and ignored ({@link StorageFile#isDirect()} is false,
 * and alignment is not checked). Opening a directory as a file fails.
 *
 * <p>Invariants: (1) every directory appears under the same parent and name in {@code children}
 * and in {@code durableChildren} (so the durable namespace is a tree). (2) Each file entry of
 * {@code durableChildren} was in {@code children} at the directory's last sync.
 *
 * <p>Thread safety: safe for concurrent use. The namespace is guarded by {@link #lock}; file
 * contents by their own {@link MemFileData} monitor; the set of locked paths by {@link #lock} too. Lock order: {@link #lock}, then a file.
 */
public final class MemFileSystem implements FileSystem {

    /** A directory or a file ({@link MemFileData}). */
    sealed interface Node permits Dir, MemFileData { }

    /** A directory: its current entries and its entries as of its last sync. */
    static final class Dir implements Node {
        final TreeMap<String, Node> children = new TreeMap<>();
        TreeMap<String, Node> durableChildren = new TreeMap<>();
    }

    private final Object lock = new Object();

    @GuardedBy("lock")
    private final Dir root;

    /** Normalized paths of the files locked through {@link #lock(Path)}; never carried into a crash clone. */
    @GuardedBy("lock")
    private final java.util.Set<Path> locked = new java.util.HashSet<>();

    public MemFileSystem() {
        this(new Dir());
    }

    private MemFileSystem(Dir root) {
        this.root = root;
    }

    @Override
    public StorageFile open(Path path, OpenOption... options) throws IOException {
        OpenMode mode = OpenMode.of(options);
        Path p = normalize(path);
        synchronized (lock) {
            Dir parent = parentLocked(p);
            String name = nameOf(p);
            Node node = parent.children.get(name);
            if (node == null) {
                if (!mode.create()) {
                    throw new NoSuchFileException(path.toString());
                }
                node = new MemFileData();
                parent.children.put(name, node);
            } else if (mode.createNew()) {
                throw new FileAlreadyExistsException(path.toString());
            }
            if (!(node instanceof MemFileData data)) {
                throw new FileSystemException(path.toString(), null, "is a directory");
            }
            if (mode.truncate()) {
                data.truncate(path, 0);
            }
            return new MemStorageFile(path, data, mode.writable());
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        Path src = normalize(from);
        Path dst = normalize(to);
        synchronized (lock) {
            Dir srcParent = parentLocked(src);
            Node node = srcParent.children.get(nameOf(src));
            if (node == null) {
                throw new NoSuchFileException(from.toString());
            }
            Dir dstParent = parentLocked(dst);
            if (src.equals(dst)) {
                return;
            }
            Node existing = dstParent.children.get(nameOf(dst));
            if (existing instanceof Dir || (node instanceof Dir && existing != null)) {
                throw new FileSystemException(from.toString(), to.toString(), "cannot replace an existing directory, "
                        + "or a file by a directory");
            }
            if (node instanceof Dir && dst.startsWith(src)) {
                throw new FileSystemException(from.toString(), to.toString(), "cannot move a directory into itself");
            }
            srcParent.children.remove(nameOf(src));
            dstParent.children.put(nameOf(dst), node);
            if (node instanceof Dir) {
                // Directory operations are durable at once (see class comment).
                srcParent.durableChildren.remove(nameOf(src), node);
                dstParent.durableChildren.put(nameOf(dst), node);
            }
        }
    }

    @Override
    public boolean delete(Path path) throws IOException {
        Path p = normalize(path);
        synchronized (lock) {
            if (p.getNameCount() == 0 || !(lookupLocked(p.getParent()) instanceof Dir parent)) {
                return false;
            }
            String name = nameOf(p);
            Node node = parent.children.get(name);
            if (node == null) {
                return false;
            }
            if (node instanceof Dir dir) {
                if (!dir.children.isEmpty()) {
                    throw new DirectoryNotEmptyException(path.toString());
                }
                parent.durableChildren.remove(name, node);
            }
            parent.children.remove(name);
            return true;
        }
    }

    @Override
    public boolean exists(Path path) {
        Path p = normalize(path);
        synchronized (lock) {
            return lookupLocked(p) != null;
        }
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        synchronized (lock) {
            return new ArrayList<>(dirLocked(dir).children.keySet());
        }
    }

    @Override
    public long size(Path path) throws IOException {
        Path p = normalize(path);
        synchronized (lock) {
            Node node = lookupLocked(p);
            if (node == null) {
                throw new NoSuchFileException(path.toString());
            }
            if (!(node instanceof MemFileData data)) {
                throw new FileSystemException(path.toString(), null, "is a directory");
            }
            return data.size();
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Path p = normalize(dir);
        synchronized (lock) {
            Dir current = root;
            for (int i = 0; i < p.getNameCount(); i++) {
                String name = p.getName(i).toString();
                Node child = current.children.get(name);
                if (child == null) {
                    Dir created = new Dir();
                    current.children.put(name, created);
                    current.durableChildren.put(name, created);
                    child = created;
                }
                if (!(child instanceof Dir next)) {
                    throw new FileAlreadyExistsException(p.getRoot().resolve(p.subpath(0, i + 1)).toString(),
                            null, "exists and is not a directory");
                }
                current = next;
            }
        }
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        synchronized (lock) {
            Dir d = dirLocked(dir);
            d.durableChildren = new TreeMap<>(d.children);
        }
    }

    @Override
    public LockFile lock(Path path) throws IOException {
        Path p = normalize(path);
        synchronized (lock) {
            if (locked.contains(p)) {
                throw new FileLockedException(path, ProcessHandle.current().pid());
            }
            try (StorageFile f = open(path, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
                f.write(0, java.nio.ByteBuffer.wrap(LockFile.holderRecord()));
                f.sync();
            }
            locked.add(p);
            return new MemLockFile(this, path, p);
        }
    }

    /** Releases the lock {@link #lock(Path)} took on a normalized path. */
    void unlock(Path normalized) {
        synchronized (lock) {
            locked.remove(normalized);
        }
    }

    /**
     * A new, independent file system holding only what this one would keep after a crash: the
     * durable entries of each directory, each file with its last synced bytes. This file system
     * is unchanged and its open handles keep working on it.
     */
    public MemFileSystem crashClone() {
        synchronized (lock) {
            return new MemFileSystem(durableCopyLocked(root, new IdentityHashMap<>()));
        }
    }

    @GuardedBy("lock")
    private static Dir durableCopyLocked(Dir dir, Map<MemFileData, MemFileData> copiedFiles) {
        Dir copy = new Dir();
        for (Map.Entry<String, Node> entry : dir.durableChildren.entrySet()) {
            Node child = entry.getValue();
            Node childCopy = child instanceof Dir d
                    ? durableCopyLocked(d, copiedFiles)
                    : copiedFiles.computeIfAbsent((MemFileData) child, MemFileData::durableCopy);
            copy.children.put(entry.getKey(), childCopy);
        }
        copy.durableChildren = new TreeMap<>(copy.children);
        return copy;
    }

    /** Total current size of all files reachable by name (a file with two names counts once). */
    public long totalBytes() {
        synchronized (lock) {
            return totalBytesLocked(root, new IdentityHashMap<>());
        }
    }

    @GuardedBy("lock")
    private static long totalBytesLocked(Dir dir, Map<MemFileData, Boolean> seen) {
        long total = 0;
        for (Node child : dir.children.values()) {
            if (child instanceof Dir d) {
                total += totalBytesLocked(d, seen);
            } else if (seen.put((MemFileData) child, Boolean.TRUE) == null) {
                total += ((MemFileData) child).size();
            }
        }
        return total;
    }

    private static Path normalize(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private static String nameOf(Path normalized) {
        if (normalized.getNameCount() == 0) {
            throw new IllegalArgumentException("the root directory has no name: " + normalized);
        }
        return normalized.getFileName().toString();
    }

    /** The node at a normalized path in the current namespace, or null. */
    @GuardedBy("lock")
    private Node lookupLocked(Path normalized) {
        Node node = root;
        for (int i = 0; i < normalized.getNameCount(); i++) {
            if (!(node instanceof Dir dir)) {
                return null;
            }
            node = dir.children.get(normalized.getName(i).toString());
            if (node == null) {
                return null;
            }
        }
        return node;
    }

    /** The existing directory that contains a normalized path. */
    @GuardedBy("lock")
    private Dir parentLocked(Path normalized) throws IOException {
        Path parent = normalized.getParent();
        if (parent == null) {
            throw new FileSystemException(normalized.toString(), null, "is the root directory");
        }
        return dirLocked(parent);
    }

    @GuardedBy("lock")
    private Dir dirLocked(Path path) throws IOException {
        Node node = lookupLocked(normalize(path));
        if (node == null) {
            throw new NoSuchFileException(path.toString());
        }
        if (!(node instanceof Dir dir)) {
            throw new NotDirectoryException(path.toString());
        }
        return dir;
    }
}
