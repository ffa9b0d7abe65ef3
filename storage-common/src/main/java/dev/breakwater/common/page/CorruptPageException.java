package dev.breakwater.common.page;

import java.io.IOException;

/**
 * A page read from disk failed verification: its checksum, format version or self-recorded page
 * number does not match. The message names the file, the page, and what was expected and found.
 * The page's contents must not be used.
 */
public final class CorruptPageException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long pageNumber;

    public CorruptPageException(String file, long pageNumber, String detail) {
        super("corrupt page " + pageNumber + " of file " + file + ": " + detail);
        this.file = file;
        this.pageNumber = pageNumber;
    }

    /** The file the page was read from. */
    public String file() {
        return file;
    }

    /** The page number within the file. */
    public long pageNumber() {
        return pageNumber;
    }
}
