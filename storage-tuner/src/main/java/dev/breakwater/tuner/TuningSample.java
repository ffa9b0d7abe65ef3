package dev.breakwater.tuner;

import java.util.List;

/**
 * The input of one tuning cycle: the difference of two statistics snapshots, plus the current split
 * (paper 000, Table 2). Page counts are in pages of the engine's page size; bytes are bytes.
 *
 * @param ops                 operations in the cycle ({@code op}): point reads, scans and record writes
 * @param trees               per-tree merge and flush counts, {@code |L_N_i|} and {@code a_i}
 * @param savedQueryPages     query disk reads the simulated cache says a larger cache would have saved ({@code saved_q})
 * @param savedMergePages     the same for merge reads ({@code saved_m})
 * @param simulatedBytes      bytes of pages the simulated cache represents ({@code sim}); 0 if it is off
 * @param queryReadPages      pages read from disk by queries ({@code read_q})
 * @param mergeReadPages      pages read from disk by merges ({@code read_m})
 * @param flushWritePages     pages written by flushes
 * @param mergeWritePages     pages written by merges ({@code merge}, the sum over trees in pages)
 * @param pageSize            bytes per page
 * @param writeMemoryBytes    write memory during the cycle ({@code x})
 * @param totalMemoryBytes    write memory plus buffer cache ({@code M})
 * @param logTrimWritePages   pages the log packer wrote (trimmed and compressed segments, paper 002); 0 without it
 */
public record TuningSample(long ops, List<TreeSample> trees, long savedQueryPages, long savedMergePages,
                           long simulatedBytes, long queryReadPages, long mergeReadPages, long flushWritePages,
                           long mergeWritePages, int pageSize, long writeMemoryBytes, long totalMemoryBytes,
                           long logTrimWritePages) {

    /** A cycle of an engine whose log is not packed ({@code logTrimWritePages = 0}). */
    public TuningSample(long ops, List<TreeSample> trees, long savedQueryPages, long savedMergePages,
                        long simulatedBytes, long queryReadPages, long mergeReadPages, long flushWritePages,
                        long mergeWritePages, int pageSize, long writeMemoryBytes, long totalMemoryBytes) {
        this(ops, trees, savedQueryPages, savedMergePages, simulatedBytes, queryReadPages, mergeReadPages,
                flushWritePages, mergeWritePages, pageSize, writeMemoryBytes, totalMemoryBytes, 0);
    }

    public TuningSample {
        trees = List.copyOf(trees);
        if (ops < 0 || savedQueryPages < 0 || savedMergePages < 0 || simulatedBytes < 0 || queryReadPages < 0
                || mergeReadPages < 0 || flushWritePages < 0 || mergeWritePages < 0 || logTrimWritePages < 0) {
            throw new IllegalArgumentException("negative count in a tuning sample: " + this
                    + "; a cycle is the difference of a later snapshot minus an earlier one");
        }
        if (pageSize <= 0) {
            throw new IllegalArgumentException("page size must be positive, got " + pageSize);
        }
        if (writeMemoryBytes <= 0 || writeMemoryBytes >= totalMemoryBytes) {
            throw new IllegalArgumentException("write memory x=" + writeMemoryBytes + " must be in (0, total memory "
                    + totalMemoryBytes + ")");
        }
    }

    /** The buffer cache during the cycle, {@code M - x}. */
    public long cacheBytes() {
        return totalMemoryBytes - writeMemoryBytes;
    }
}
