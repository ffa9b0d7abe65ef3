package dev.breakwater.txn;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The identity file {@code BREAKWATER} at the top of a data directory: written when the engine
 * creates the directory, it is how the engine tells its own directory from a user's. Format
 * (ASCII, two lines):
 *
 * <pre>
 * breakwater data directory\n
 * format-version 1\n
 * </pre>
 *
 * Written atomically ({@code BREAKWATER.tmp}, sync, rename, sync the directory). A reader accepts
 * exactly the first line and a format version it knows; anything else is refused.
 *
 * <p>Thread safety: stateless.
 */
final class DataDirectoryMarker {

    static final String FILE = "BREAKWATER";
    static final String TMP = FILE + ".tmp";
    static final int FORMAT_VERSION = 1;
    private static final String FIRST_LINE = "breakwater data directory";
    private static final int MAX_BYTES = 256;

    private DataDirectoryMarker() {
    }

    static void write(FileSystem fs, Path dir) throws IOException {
        byte[] bytes = (FIRST_LINE + "\nformat-version " + FORMAT_VERSION + "\n").getBytes(StandardCharsets.US_ASCII);
        Path tmp = dir.resolve(TMP);
        try (StorageFile f = fs.open(tmp, OpenOption.CREATE, OpenOption.WRITE, OpenOption.TRUNCATE)) {
            f.write(0, ByteBuffer.wrap(bytes));
            f.sync();
        }
        fs.rename(tmp, dir.resolve(FILE));
        fs.syncDirectory(dir);
    }

    /**
     * Checks the marker of {@code dir}.
     *
     * @throws DataDirectoryException if it is not a marker this build reads
     */
    static void check(FileSystem fs, Path dir) throws IOException {
        Path path = dir.resolve(FILE);
        String text;
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(MAX_BYTES, f.size()));
            f.read(0, b);
            text = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
        }
        String[] lines = text.split("\n", -1);
        if (lines.length < 2 || !lines[0].equals(FIRST_LINE) || !lines[1].startsWith("format-version ")) {
            throw new DataDirectoryException("data directory " + dir + " has a " + FILE + " file that is not a Breakwater "
                    + "marker; this is not a Breakwater data directory, or its marker is damaged (restore it: two lines, '"
                    + FIRST_LINE + "' and 'format-version " + FORMAT_VERSION + "')");
        }
        int version;
        try {
            version = Integer.parseInt(lines[1].substring("format-version ".length()).trim());
        } catch (NumberFormatException e) {
            throw new DataDirectoryException("data directory " + dir + ": " + FILE + " has an unreadable format version '"
                    + lines[1] + "'");
        }
        if (version > FORMAT_VERSION || version < 1) {
            throw new DataDirectoryException("data directory " + dir + " has format version " + version
                    + "; this build reads version " + FORMAT_VERSION + " (open it with the build that wrote it)");
        }
    }
}
