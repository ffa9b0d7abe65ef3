package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Names and lists the segment files of a transaction log. A segment is named after the LSN of its
 * first byte, zero-padded to 20 digits so that name order is LSN order: {@code log-00000000000000004096.seg}.
 * Files in the log directory whose names do not match are ignored. A packed replacement
 * ({@link PackedSegmentFormat}) is written as {@code log-<20 digits>.seg.packing} and renamed over
 * the segment once complete and synced; such a file left by a crash is garbage and removed at open.
 *
 * <p>Thread safety: stateless; safe.
 */
public final class SegmentFiles {

    private static final String PREFIX = "log-";
    private static final String SUFFIX = ".seg";
    private static final int DIGITS = 20;
    /** Suffix of a packed segment being written, before it is renamed over its segment. */
    private static final String TEMP_SUFFIX = ".packing";

    private SegmentFiles() {
    }

    /** The file name of the segment whose first LSN is {@code firstLsn}. */
    public static String fileName(long firstLsn) {
        if (firstLsn < 0) {
            throw new IllegalArgumentException("negative LSN " + firstLsn);
        }
        String digits = Long.toString(firstLsn);
        return PREFIX + "0".repeat(DIGITS - digits.length()) + digits + SUFFIX;
    }

    /** The path of that segment in {@code dir}. */
    public static Path path(Path dir, long firstLsn) {
        return dir.resolve(fileName(firstLsn));
    }

    /** The first LSN a segment file name stands for, or -1 if the name is not a segment's. */
    public static long parse(String name) {
        if (name.length() != PREFIX.length() + DIGITS + SUFFIX.length() || !name.startsWith(PREFIX)
                || !name.endsWith(SUFFIX)) {
            return -1;
        }
        long value = 0;
        for (int i = PREFIX.length(); i < PREFIX.length() + DIGITS; i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Where a packed replacement of segment {@code firstLsn} is written before the swap. */
    static Path tempPath(Path dir, long firstLsn) {
        return dir.resolve(fileName(firstLsn) + TEMP_SUFFIX);
    }

    /**
     * Deletes packed replacements a crash left half written ({@link #tempPath} names, nothing else)
     * and syncs the directory if it deleted any; returns how many.
     */
    static int deleteLeftoverTemporaries(FileSystem fs, Path dir) throws IOException {
        int n = 0;
        for (String name : fs.list(dir)) {
            if (name.endsWith(TEMP_SUFFIX) && parse(name.substring(0, name.length() - TEMP_SUFFIX.length())) >= 0) {
                fs.delete(dir.resolve(name));
                n++;
            }
        }
        if (n > 0) {
            fs.syncDirectory(dir);
        }
        return n;
    }

    /** The first LSNs of the segments in {@code dir}, ascending; empty if the directory has none. */
    public static long[] list(FileSystem fs, Path dir) throws IOException {
        List<String> names = fs.list(dir);
        long[] firstLsns = new long[names.size()];
        int n = 0;
        for (String name : names) {
            long lsn = parse(name);
            if (lsn >= 0) {
                firstLsns[n++] = lsn;
            }
        }
        long[] result = Arrays.copyOf(firstLsns, n);
        Arrays.sort(result);
        return result;
    }
}
