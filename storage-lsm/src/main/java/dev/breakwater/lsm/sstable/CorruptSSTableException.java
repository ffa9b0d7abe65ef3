package dev.breakwater.lsm.sstable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An SSTable file as a whole is unusable: too short, not a whole number of pages, or its footer
 * describes a layout that does not match the file. Problems within one page are reported as
 * {@link dev.breakwater.common.page.CorruptPageException} instead. The message names the file.
 */
public final class CorruptSSTableException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public CorruptSSTableException(Path file, String detail) {
        super("corrupt SSTable " + file + ": " + detail);
        this.file = file;
    }

    /** The file. */
    public Path file() {
        return file;
    }
}
