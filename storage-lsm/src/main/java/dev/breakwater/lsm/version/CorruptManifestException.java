package dev.breakwater.lsm.version;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A tree's manifest (or its {@code CURRENT} file) is damaged: the version it records cannot be read
 * completely, so the tree refuses to open and leaves every file as it was. Names the file and the
 * byte offset of the damage, and how to recover.
 */
public final class CorruptManifestException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;
    private final long offset;

    public CorruptManifestException(Path path, long offset, String detail) {
        super("manifest " + path + " is damaged" + (offset >= 0 ? " at offset " + offset : "") + ": " + detail
                + "; the tree was not opened and no file was changed (restore the tree directory from a backup, "
                + "or move it away to give up its data)");
        this.path = path;
        this.offset = offset;
    }

    /** The damaged file. */
    public Path path() {
        return path;
    }

    /** Byte offset of the damage in {@link #path()}, or -1 if it concerns the whole file or directory. */
    public long offset() {
        return offset;
    }
}
