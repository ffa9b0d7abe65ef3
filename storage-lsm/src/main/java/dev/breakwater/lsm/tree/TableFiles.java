package dev.breakwater.lsm.tree;

import java.nio.file.Path;

/**
 * Names of a tree's files: SSTables are {@code <file number, 6+ digits>.sst}; an SSTable being
 * written is {@code <number>.sst.tmp} until it is complete and synced, then renamed, so a crash
 * never leaves a partial file under a live name. Manifest files are named by {@code ManifestFormat}.
 * Public so that inspection tools find a version's files by the same names.
 *
 * <p>Thread safety: stateless.
 */
public final class TableFiles {

    /** Suffix of a complete SSTable file. */
    public static final String SUFFIX = ".sst";
    static final String TMP_SUFFIX = ".sst.tmp";

    private TableFiles() {
    }

    /** The file name of SSTable {@code fileNumber}. */
    public static String name(long fileNumber) {
        return String.format("%06d%s", fileNumber, SUFFIX);
    }

    /** The path of SSTable {@code fileNumber} in the tree directory {@code dir}. */
    public static Path path(Path dir, long fileNumber) {
        return dir.resolve(name(fileNumber));
    }

    static Path tmpPath(Path dir, long fileNumber) {
        return dir.resolve(String.format("%06d%s", fileNumber, TMP_SUFFIX));
    }

    /** The file number of an SSTable file name, or -1 if the name is not one. */
    public static long parse(String fileName) {
        if (!fileName.endsWith(SUFFIX)) {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(0, fileName.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
