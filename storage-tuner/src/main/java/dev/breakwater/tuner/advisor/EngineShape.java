package dev.breakwater.tuner.advisor;

/**
 * What Breakwater adds to paper 003's model: on the read path (docs/benchmarks-advisor.md, 2026-11-27)
 * the L0 groups a read probes besides the levels and the index pages a probe walks from an SSTable's
 * root to its leaf; on the write path (session 9) merge cost that follows the write memory within a
 * level count. Used by {@link LsmCostModel} with the cache model ({@link Environment#cacheModel()}).
 *
 * <p>Immutable; thread-safe.
 *
 * @param l0Runs        mean L0 groups (runs) a read meets: every flush adds one, the L0 merge takes them
 *                      at 4 (the engine's group trigger), so 0–3 are waiting; measured 1.0–1.3 on
 *                      average at the bench's read times, and 1.25 by default
 * @param indexHeight   index pages from the root to a leaf, read by every probe that passes the filter
 *                      and by every range-read seek (2 for 1 MiB tables of 4 KiB pages and for 64 MiB
 *                      tables of 16 KiB pages: {@link #indexHeight(long, int, int)})
 * @param indexEntryBytes bytes an index page spends per child (slot, child number, separator length and
 *                      separator): the index is about {@code indexEntryBytes / pageBytes} of the data
 * @param levelSizedWrites true: merge writes per operation scale with the continuous level count
 *                      {@code L_c = max(1, ln(N·E/m + 1) / ln T)} instead of the whole L, as the engine
 *                      sizes its levels from the write memory m (docs/design.md §4, paper 000 eq. 1/4:
 *                      merge cost per op ∝ ln(|L_N|/(a·x))); so within a level count U falls as m grows
 *                      ({@link LsmCostModel}). false: the slides' U, a step function of m (2026-11-27)
 */
public record EngineShape(double l0Runs, int indexHeight, int indexEntryBytes, boolean levelSizedWrites) {

    /**
     * Breakwater's defaults: 1.25 L0 groups, index height 2, 21 bytes per index entry (an 8-byte key),
     * merge writes that follow the write memory.
     */
    public static final EngineShape BREAKWATER = new EngineShape(1.25, 2, 21, true);

    /** The read path only, with the slides' write cost (the model of 2026-11-27). */
    public EngineShape(double l0Runs, int indexHeight, int indexEntryBytes) {
        this(l0Runs, indexHeight, indexEntryBytes, false);
    }

    /** A copy with or without write costs that follow the write memory. */
    public EngineShape withLevelSizedWrites(boolean on) {
        return new EngineShape(l0Runs, indexHeight, indexEntryBytes, on);
    }

    public EngineShape {
        if (!(l0Runs >= 0) || Double.isInfinite(l0Runs)) {
            throw new IllegalArgumentException("L0 runs must be finite and >= 0, got " + l0Runs);
        }
        if (indexHeight < 0 || indexEntryBytes < 1) {
            throw new IllegalArgumentException("need index height >= 0 and index entry bytes >= 1, got " + indexHeight + ", " + indexEntryBytes);
        }
    }

    /**
     * The index height of an SSTable of {@code tableBytes} with pages of {@code pageBytes}: the least
     * h &gt;= 1 with {@code fanout^h >= leaves}, fanout {@code (pageBytes − 24) / indexEntryBytes}
     * (docs/formats.md, index page).
     */
    public static int indexHeight(long tableBytes, int pageBytes, int indexEntryBytes) {
        long leaves = Math.max(1, tableBytes / pageBytes);
        long fanout = Math.max(2, (pageBytes - 24L) / indexEntryBytes);
        int h = 1;
        long reach = fanout;
        while (reach < leaves) {
            reach *= fanout;
            h++;
        }
        return h;
    }
}
