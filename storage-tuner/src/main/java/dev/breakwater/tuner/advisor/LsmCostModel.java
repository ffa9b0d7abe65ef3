package dev.breakwater.tuner.advisor;

/**
 * The closed-form I/O cost of an LSM-tree design for each operation kind, as on the slides of paper 003
 * (from Monkey, Dostoevsky and ENDURE).
 *
 * <h2>Equations as implemented</h2>
 * With {@code B_e = m_buff / E} entries in the write memory, level {@code i} holding up to
 * {@code (T − 1)·T^(i−1)·B_e} entries, {@code B} entries per page, {@code f} the false-positive rate of
 * a filter with {@code h} bits per key and {@code K_i} runs at level {@code i}:
 * <pre>
 *   L      = the least L &gt;= 1 with N_f = B_e·(T^L − 1) &gt;= N           (levels needed to hold N)
 *   Z0     = Σ_{i=1..L} K_i·f
 *   Z1     = Σ_{i=1..L} (T − 1)·T^(i−1)·B_e / N_f · (1 + Σ_{j&lt;i} K_j·f + (K_i − 1)/2 · f)
 *   Q      = f_seq·S_RQ·N/B + Σ_{i=1..L} K_i
 *   U      = f_seq·(1 + f_a)/B · Σ_{i=1..L} (T − 1 + K_i) / (2·K_i)
 * </pre>
 * {@code (T − 1)·T^(i−1)·B_e / N_f} is the probability that a non-empty read is satisfied at level i;
 * {@code (T − 1 + K)/(2K)} is how many merges an entry takes part in at a level. With the cache model
 * ({@link Environment#cacheModel()}), Z0, Z1 and Q are multiplied by {@code 1 − hit}, where
 * {@code hit = min(1, (M − m_buff − m_filter) / (N·E))}; merge I/O (U) is not cached.
 *
 * <p>Since {@code N_f} scales with {@code B_e}, the write memory enters the costs only through L (and
 * through the cache): the cost is a step function of it. {@link DesignSpace} uses that to search it
 * exactly.
 *
 * <h2>Breakwater's read path ({@link EngineShape})</h2>
 * With an engine shape (the default with the cache model) Z0, Z1 and Q are instead priced by
 * {@link CachedReadCosts}: L0's groups are probed too, a level holds on average {@code (K + 1)/2}
 * runs (the last one fewer when its data fills less than K shares), a probe reads a Bloom page and
 * the index pages above its leaf, and the cache holds filter and index pages first, then the
 * hottest leaves (small, recent runs before the last level) instead of a uniform share of the data.
 * With it, the write memory also sizes L0 and the upper levels, so the cost is no longer exactly a
 * step function of it.
 *
 * <h2>Breakwater's write path ({@link EngineShape#levelSizedWrites()}, session 9)</h2>
 * The engine sizes its levels from the write memory (docs/design.md §4: L1 is added when
 * {@code m·T < |L1|}, level targets {@code max(m·T^i, |L_N|/T^(N−i))}), and an L0 merge rewrites the
 * overlapping part of L1 per batch of flushes, so a larger m means larger flushes and fewer rewrites
 * per entry even when the level count stays. Paper 000 (eq. 1 and 4, the tuner's write'(x)) prices
 * that as merge writes proportional to the continuous level count; here
 * <pre>
 *   L_c    = max(1, ln(N·E/m + 1) / ln T)        (= L at the breakpoints m = N·E/(T^L − 1))
 *   U      = f_seq·(1 + f_a)/B · Σ_{i=1..L} (T − 1 + K_i) / (2·K_i) · L_c / L
 * </pre>
 * so U equals the slides' U where the level count changes and falls between them as m grows (with a
 * floor of one level's merges, as the tuner's guard raises {@code |L_N|/(a·x)} to T). Reads still see
 * the whole levels. Within a level count the cost now trades cheaper merges against a smaller cache,
 * so {@link DesignSpace} searches a grid of write-memory sizes besides the breakpoints
 * ({@link #writeCostFollowsWriteMemory()}).
 *
 * <p>Thread safety: immutable; safe.
 */
public final class LsmCostModel {

    private final Environment env;
    private final EngineShape shape;

    /** The slides' model, or with {@link Environment#cacheModel()} Breakwater's with {@link EngineShape#BREAKWATER}. */
    public LsmCostModel(Environment env) {
        this(env, env.cacheModel() ? EngineShape.BREAKWATER : null);
    }

    /**
     * @param shape Breakwater's read path; null for the slides' read costs (with the cache model: times
     *              a uniform miss rate, the model of 2026-11-26)
     */
    public LsmCostModel(Environment env, EngineShape shape) {
        this.env = env;
        this.shape = shape;
    }

    /** The engine shape the read costs use, or null (the slides' equations). */
    public EngineShape shape() {
        return shape;
    }

    public Environment environment() {
        return env;
    }

    /** True if the design's write memory and filters fit in the total memory. */
    public boolean feasible(Design d) {
        return d.writeMemoryBytes() + d.filterBytes(env.entries()) <= env.totalMemoryBytes();
    }

    /** L: the levels a tree of N entries needs with this write memory and size ratio. */
    public int levels(Design d) {
        return levels(env.entries(), bufferEntries(d), d.sizeRatio());
    }

    static int levels(long entries, double bufferEntries, int sizeRatio) {
        int l = 1;
        double full = bufferEntries * (sizeRatio - 1);
        while (full < entries && l < 64) {
            l++;
            full = bufferEntries * (Math.pow(sizeRatio, l) - 1);
        }
        return l;
    }

    /**
     * The smallest write memory (bytes, rounded up) with which N entries fit in {@code levels}
     * levels at size ratio T: {@code N·E / (T^L − 1)}.
     */
    public long minWriteMemoryFor(int levels, int sizeRatio) {
        double bytes = env.dataBytes() / (Math.pow(sizeRatio, levels) - 1);
        long b = (long) Math.ceil(bytes);
        // guard against floating point: make sure the result really yields no more than `levels` levels
        while (levels(env.entries(), (double) b / env.entryBytes(), sizeRatio) > levels) {
            b = Math.max(b + 1, (long) (b * 1.000001));
        }
        return Math.max(1, b);
    }

    /** The costs of each operation kind under design {@code d}. Requires: {@link #feasible}. */
    public OperationCosts costs(Design d) {
        if (!feasible(d)) {
            throw new IllegalArgumentException("design " + d + " needs " + (long) (d.writeMemoryBytes() + d.filterBytes(env.entries()))
                    + " bytes of memory, more than the total " + env.totalMemoryBytes());
        }
        double be = bufferEntries(d);
        int t = d.sizeRatio();
        int levels = levels(env.entries(), be, t);
        double f = BloomFalsePositives.rate(env, d.bloomBitsPerKey());
        double nf = be * (Math.pow(t, levels) - 1);
        double z0 = 0;
        double z1 = 0;
        double seeks = 0;
        double merges = 0;
        double above = 0; // Σ_{j<i} K_j·f
        for (int i = 1; i <= levels; i++) {
            int k = d.runs(i);
            double pHere = (t - 1) * Math.pow(t, i - 1) * be / nf;
            z1 += pHere * (1 + above + (k - 1) / 2.0 * f);
            above += k * f;
            seeks += k;
            merges += (t - 1.0 + k) / (2.0 * k);
        }
        z0 = above;
        double b = env.entriesPerPage();
        double q = env.seqCost() * env.rangeSelectivity() * env.entries() / b + seeks;
        if (shape != null && shape.levelSizedWrites()) {
            merges *= continuousLevels(d) / levels;
        }
        double u = env.seqCost() * (1 + env.writeAsymmetry()) / b * merges;
        if (shape != null) {
            double[] r = CachedReadCosts.costs(env, shape, d, levels, f);
            return new OperationCosts(r[0], r[1], r[2], u, levels, f, r[3]);
        }
        double hit = cacheHit(d);
        return new OperationCosts(z0 * (1 - hit), z1 * (1 - hit), q * (1 - hit), u, levels, f, hit);
    }

    /**
     * {@code L_c = max(1, ln(N·E/m + 1) / ln T)}: the level count as a continuous function of the write
     * memory m; {@code L_c <= L} ({@link #levels}), equal where L changes.
     */
    public double continuousLevels(Design d) {
        double ratio = env.dataBytes() / d.writeMemoryBytes() + 1;
        return Math.max(1, Math.log(ratio) / Math.log(d.sizeRatio()));
    }

    /**
     * True if a cost changes with the write memory between the level-count breakpoints in a way the
     * breakpoints cannot stand for (merge writes that fall with m against a cache that shrinks), so the
     * search must try sizes between them ({@link DesignSpace}).
     */
    public boolean writeCostFollowsWriteMemory() {
        return shape != null && shape.levelSizedWrites();
    }

    /** C(w, φ). */
    public double cost(Workload w, Design d) {
        return costs(d).cost(w);
    }

    /** Bytes of buffer cache left for data pages (0 without the cache model). */
    public double cacheBytes(Design d) {
        return env.cacheModel() ? Math.max(0, env.totalMemoryBytes() - d.writeMemoryBytes() - d.filterBytes(env.entries())) : 0;
    }

    private double cacheHit(Design d) {
        return Math.min(1.0, cacheBytes(d) / env.dataBytes());
    }

    private double bufferEntries(Design d) {
        return (double) d.writeMemoryBytes() / env.entryBytes();
    }
}
