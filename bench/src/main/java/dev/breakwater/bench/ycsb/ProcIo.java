package dev.breakwater.bench.ycsb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's I/O counters from {@code /proc/self/io}: {@code read_bytes} and {@code write_bytes}
 * count bytes this process caused to be fetched from or sent to the block layer (page-cache
 * write-back included, page-cache hits excluded). They are process-wide: every thread of the JVM
 * counts, so a phase's delta includes anything else the JVM wrote meanwhile. On systems without
 * the file both are -1.
 *
 * @param readBytes  {@code read_bytes}
 * @param writeBytes {@code write_bytes}
 * @param rchar      {@code rchar}: bytes passed to read-like system calls (page-cache hits included)
 * @param wchar      {@code wchar}: bytes passed to write-like system calls
 */
public record ProcIo(long readBytes, long writeBytes, long rchar, long wchar) {

    private static final Path FILE = Path.of("/proc/self/io");

    /** Reads the counters now. */
    public static ProcIo now() {
        long rb = -1;
        long wb = -1;
        long rc = -1;
        long wc = -1;
        try {
            for (String line : Files.readAllLines(FILE)) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                long v = Long.parseLong(line.substring(colon + 1).trim());
                switch (line.substring(0, colon)) {
                    case "read_bytes" -> rb = v;
                    case "write_bytes" -> wb = v;
                    case "rchar" -> rc = v;
                    case "wchar" -> wc = v;
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: report -1
        }
        return new ProcIo(rb, wb, rc, wc);
    }

    /** The counters since {@code earlier}. */
    public ProcIo minus(ProcIo earlier) {
        return new ProcIo(readBytes - earlier.readBytes, writeBytes - earlier.writeBytes, rchar - earlier.rchar,
                wchar - earlier.wchar);
    }
}
