package dev.breakwater.tuner.advisor;

/**
 * What the cost model takes as given about the system and the data (paper 003's "S"), as opposed to
 * the design it chooses.
 *
 * <p>Immutable; thread-safe.
 *
 * @param entries           N, the number of distinct keys in the tree
 * @param entryBytes        E, bytes per entry (key, value and per-entry overhead)
 * @param pageBytes         disk page size; {@code B = pageBytes / entryBytes} entries fit in a page
 * @param totalMemoryBytes  M, the memory the design splits: write memory, Bloom filters and (with
 *                          {@code cacheModel}) the buffer cache
 * @param rangeSelectivity  S_RQ, the fraction of all entries one range read returns
 * @param seqCost           f_seq, the cost of a sequential page I/O relative to a random one
 * @param writeAsymmetry    f_a, the cost of writing a page relative to reading it (a merge reads
 *                          and writes each page: {@code 1 + f_a})
 * @param cacheModel        false: the slides' model, which has no page cache (memory not spent on
 *                          write memory or filters is idle); true: Breakwater's, where the buffer
 *                          cache holds the filters and spends the rest of {@code M} on data pages,
 *                          and a random page read hits it with probability
 *                          {@code min(1, cacheBytes / (N·E))} (uniform access)
 * @param blockedFilters    false: the textbook false-positive rate {@code e^(−h·ln²2)}; true: the rate
 *                          of Breakwater's blocked filters (512-bit blocks,
 *                          {@code k = round(h·ln 2)} probes), see {@link BloomFalsePositives}
 * @param keySkew           θ &gt;= 0, the Zipf exponent of how often pages are read: within a run the
 *                          k-th hottest page is read in proportion to {@code k^−θ} (0: uniform keys,
 *                          every page as hot as any other; YCSB's Zipfian keys, scattered over the
 *                          pages by hashing, about 0.99). Used by the engine shape's cache
 *                          ({@link CachedReadCosts}): the cache keeps the hottest pages, so with skew its
 *                          first MiB saves more reads than its last
 */
public record Environment(long entries, int entryBytes, int pageBytes, long totalMemoryBytes, double rangeSelectivity,
                          double seqCost, double writeAsymmetry, boolean cacheModel, boolean blockedFilters, double keySkew) {

    /** Uniform keys ({@code keySkew} 0). */
    public Environment(long entries, int entryBytes, int pageBytes, long totalMemoryBytes, double rangeSelectivity,
                       double seqCost, double writeAsymmetry, boolean cacheModel, boolean blockedFilters) {
        this(entries, entryBytes, pageBytes, totalMemoryBytes, rangeSelectivity, seqCost, writeAsymmetry, cacheModel, blockedFilters, 0);
    }

    public Environment {
        if (entries < 1) {
            throw new IllegalArgumentException("entries N must be >= 1, got " + entries);
        }
        if (entryBytes < 1 || pageBytes < entryBytes) {
            throw new IllegalArgumentException("need 1 <= entry bytes <= page bytes, got entry " + entryBytes + ", page " + pageBytes);
        }
        if (totalMemoryBytes < 1) {
            throw new IllegalArgumentException("total memory must be positive, got " + totalMemoryBytes);
        }
        if (!(rangeSelectivity >= 0 && rangeSelectivity <= 1)) {
            throw new IllegalArgumentException("range selectivity must be in [0, 1], got " + rangeSelectivity);
        }
        if (!(seqCost > 0) || !(writeAsymmetry >= 0) || Double.isInfinite(seqCost) || Double.isInfinite(writeAsymmetry)) {
            throw new IllegalArgumentException("f_seq must be > 0 and f_a >= 0, both finite; got " + seqCost + ", " + writeAsymmetry);
        }
        if (!(keySkew >= 0) || Double.isInfinite(keySkew)) {
            throw new IllegalArgumentException("key skew must be a finite number >= 0, got " + keySkew);
        }
    }

    /** B: entries per page. */
    public double entriesPerPage() {
        return (double) pageBytes / entryBytes;
    }

    /** N·E: bytes of data. */
    public double dataBytes() {
        return (double) entries * entryBytes;
    }

    /** The slides' setting: no cache, textbook filters, f_seq = f_a = 1. */
    public static Environment slides(long entries, int entryBytes, int pageBytes, long totalMemoryBytes, double rangeSelectivity) {
        return new Environment(entries, entryBytes, pageBytes, totalMemoryBytes, rangeSelectivity, 1.0, 1.0, false, false, 0);
    }

    /** A copy with Breakwater's buffer cache and blocked filters modelled. */
    public Environment breakwater() {
        return new Environment(entries, entryBytes, pageBytes, totalMemoryBytes, rangeSelectivity, seqCost, writeAsymmetry, true, true, keySkew);
    }

    /** A copy with pages read with Zipf exponent {@code theta} (0: uniform). */
    public Environment withKeySkew(double theta) {
        return new Environment(entries, entryBytes, pageBytes, totalMemoryBytes, rangeSelectivity, seqCost, writeAsymmetry, cacheModel,
                blockedFilters, theta);
    }
}
