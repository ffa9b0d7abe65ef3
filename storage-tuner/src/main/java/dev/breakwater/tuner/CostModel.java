package dev.breakwater.tuner;

/**
 * The cost-derivative model of paper 000 §5.2–5.3: from one cycle's {@link TuningSample}, how the
 * weighted I/O cost per operation changes with one more byte of write memory {@code x}.
 *
 * <h2>Equations as implemented</h2>
 * Per tree {@code i}, with {@code merge_i} the pages its merges wrote per operation,
 * <pre>
 *   write'_i(x) = − merge_i / (x · ln(|L_N_i| / (a_i·x))) · flush_mem_i / (flush_mem_i + flush_log_i)   (eq. 4, 5)
 *   write'(x)   = Σ_i write'_i(x)
 *   read'(x)    = (saved_q + saved_m) / sim + write'(x) · read_m / merge                              (eq. 6)
 *               + Σ_i − read_q_i / (x · ln(|L_N_i| / (a_i·x))) · flush_mem_i / (flush_mem_i + flush_log_i)   (query levels)
 *   cost'(x)    = ω · write'(x) + γ · read'(x)
 * </pre>
 * where {@code saved_q}, {@code saved_m}, {@code read_m} and {@code merge} are pages per operation,
 * {@code sim} and {@code x} are bytes, so every derivative is in pages per operation per byte.
 *
 * <h2>Guards (cases the paper glosses over)</h2>
 * <ol>
 *   <li><b>No merges</b> ({@code merge_i = 0}): the term is 0. Eq. 4 is proportional to the merge
 *       writes it saves; with none observed there is nothing to save and no evidence.</li>
 *   <li><b>No write memory</b> ({@code a_i = 0}): the term is 0; the tree holds none of {@code x},
 *       so more {@code x} does not reach it.</li>
 *   <li><b>Fits in memory</b> ({@code |L_N_i| ≤ a_i·x}, including an empty tree): the term is 0.
 *       The tree has no disk level that more memory could remove; the logarithm would be zero or
 *       negative and the term infinite or of the wrong sign.</li>
 *   <li><b>Fewer than one level</b> ({@code 1 < |L_N_i|/(a_i·x) < T}): the ratio is raised to the
 *       size ratio {@code T}. A tree that merges has at least one disk level, and
 *       {@code ln(|L_N|/(a·x)) / ln T} is its level count, so it is at least {@code ln T}; without the
 *       clamp a ratio near 1 would make the term tend to −∞.</li>
 *   <li><b>No flushes</b> in the cycle ({@code flush_mem_i + flush_log_i = 0}): the scale factor is 1.
 *       Merges without flushes in the same cycle consume earlier flushes, whose cause is not in the
 *       sample; assuming memory-triggered flushes is the paper's unscaled eq. 4.</li>
 *   <li><b>No merge writes at all</b> ({@code merge = 0}): the merge-read term of eq. 6 is 0
 *       (it is {@code write'(x) · read_m / merge} and {@code write'(x)} is 0 then too).</li>
 * </ol>
 * <h2>When eq. 5's factor is wrong ({@code tuner-flush-cause-scaling})</h2>
 * The paper scales eq. 4 down as log-triggered flushes take over, reasoning that the flushed
 * components then stop growing with {@code x}, so more write memory no longer saves merges. In
 * Breakwater the merges do not follow the size of a flush: L0 merges when it holds
 * {@code l0-merge-groups} round-robin passes or that many times the tree's write memory, and level
 * targets are {@code max(M·T^i, |L_N| / T^(N-i))} with {@code M} the tree's write memory (see
 * {@code LevelingPicker}), whatever caused the flushes that filled them. On TPC-C at 64 MiB, doubling
 * write memory from 16 to 32 MiB cut merge writes per operation by 60% over 600 s while nearly every
 * flush at 32 MiB was log-triggered (docs/benchmarks-tuner.md); the factor made eq. 4 predict 5.8×
 * too small a saving, unscaled 3.3×. The option turns the factor off.
 *
 * <h2>Query levels (not in the paper; {@code tuner-query-levels})</h2>
 * Eq. 6 lets more write memory change query reads only through the smaller cache. But a tree's disk
 * levels number {@code ln(|L_N_i|/(a_i·x)) / ln T}, and a scan reads every level it crosses, so more
 * write memory also leaves each query fewer levels to read. If the pages tree {@code i}'s queries read
 * from disk, {@code read_q_i}, are proportional to its level count, their derivative is the last
 * line above: eq. 4 with merge writes replaced by query reads, under the same guards and the same
 * factor. On TPC-C at 32 MiB (docs/benchmarks-tuner.md, thirteenth session) queries pinned 189 pages
 * per transaction at x = 5 MiB and 154 at 12 MiB; integrated from the first with a typical level ratio
 * (ln(|L_N_i|/(a_i·x)) ≈ 4.8, estimated from the trees' sizes, not measured per tree) this term
 * gives about 155. Without it
 * the tuner saw only the cache's side, read'(x) 2–4× too steep, and settled at the 4 MiB floor on a
 * cost curve flat from 5 to 12 MiB. Point lookups whose Bloom filters skip the upper levels read
 * fewer levels than this assumes, so on a point-read workload the term over-counts; it is 0 for a
 * tree with no query reads on disk and for a tree with no write memory.
 *
 * <p>It is also 0 for a tree that neither flushed nor merged in the cycle. Write memory reaches a
 * tree's level count only through the flushes and merges that reshape it: a read-only tree (TPC-C's
 * items) keeps the levels its load left whatever {@code x} is, and a cycle in which a tree wrote
 * nothing to disk is no evidence that its levels follow {@code x}. Without this gate a read-mostly
 * workload (2% writes, all point lookups, 32 MiB; {@code MemoryTunerEngineTest}) had the term
 * (−0.013 … −0.018 pages/op per MiB) cancel the simulated cache's +0.015 in every 300 ms cycle, and
 * the tuner wandered between 13 and 21 MiB of write memory instead of giving the cache memory.
 *
 * <h2>Log trimming (paper 002)</h2>
 * With {@code log-trim} on, the log packer's own writes are write cost: {@code write(x)} counts them
 * ({@code logTrimWritePages}). They add no term to {@code write'(x)}: a pass starts when the sealed
 * log reaches λ_t times the data in write memory and rewrites what is still live, about that data,
 * so both the bytes a pass writes and the log growth between passes are proportional to {@code x},
 * and the trim's writes per operation do not depend on {@code x} to first order. What trimming does
 * change is where the log stops letting write memory grow: log-triggered flushes fire on the
 * trimmed size on disk, so {@code flush_log_i} stays small up to a larger {@code x}, and with
 * {@code tuner-flush-cause-scaling} on, the scale factor of eq. 5, measured every cycle, carries that
 * moved limit into {@code write'(x)}.
 *
 * <p>Empty cycles ({@code op = 0}) and a disabled simulated cache ({@code sim = 0}) are not guarded
 * here but refused by the controller ({@link MemoryTuner}), which takes no step on them.
 *
 * <p>Thread safety: stateless; static methods only.
 */
public final class CostModel {

    private CostModel() {
    }

    /** {@link #derive(TuningSample, double, double, int, boolean, boolean)} with eq. 5's factor, as in the paper. */
    public static CostDerivative derive(TuningSample sample, double omega, double gamma, int sizeRatio) {
        return derive(sample, omega, gamma, sizeRatio, true, false);
    }

    /** The paper's read'(x) (eq. 6), without the query-levels term. */
    public static CostDerivative derive(TuningSample sample, double omega, double gamma, int sizeRatio,
                                        boolean flushCauseScaling) {
        return derive(sample, omega, gamma, sizeRatio, flushCauseScaling, false);
    }

    /**
     * The derivative for {@code sample}. Requires: {@code sample.ops() > 0}.
     *
     * @param sizeRatio         the trees' size ratio T (guard 4)
     * @param flushCauseScaling apply eq. 5's factor {@code flush_mem_i / (flush_mem_i + flush_log_i)}
     * @param queryLevels       add the query-levels term {@code queryLevels'(x)} to read'(x)
     */
    public static CostDerivative derive(TuningSample sample, double omega, double gamma, int sizeRatio,
                                        boolean flushCauseScaling, boolean queryLevels) {
        if (sample.ops() <= 0) {
            throw new IllegalArgumentException("a cycle without operations has no cost per operation");
        }
        double ops = sample.ops();
        double x = sample.writeMemoryBytes();
        double page = sample.pageSize();
        double lnT = Math.log(Math.max(2, sizeRatio));
        double writePrime = 0;
        double queryLevelsPrime = 0;
        int guarded = 0;
        for (TreeSample t : sample.trees()) {
            double treeMemory = t.memoryShare() * x;
            if (treeMemory <= 0 || t.lastLevelBytes() <= treeMemory) {
                guarded += t.mergeBytes() == 0 ? 0 : 1; // a tree without merges is not a guard, just idle
                continue;
            }
            double lnRatio = Math.log(t.lastLevelBytes() / treeMemory);
            if (lnRatio < lnT) {
                lnRatio = lnT;
                guarded += t.mergeBytes() == 0 ? 0 : 1;
            }
            long flushed = t.flushMemBytes() + t.flushLogBytes();
            double scale = !flushCauseScaling || flushed == 0 ? 1.0 : (double) t.flushMemBytes() / flushed;
            double mergePerOp = t.mergeBytes() / page / ops;
            writePrime -= mergePerOp / (x * lnRatio) * scale;
            if (queryLevels && t.mergeBytes() + t.flushMemBytes() + t.flushLogBytes() > 0) {
                queryLevelsPrime -= t.queryReadPages() / ops / (x * lnRatio) * scale;
            }
        }
        double simulatedPrime = sample.simulatedBytes() == 0 ? 0
                : (sample.savedQueryPages() + sample.savedMergePages()) / ops / sample.simulatedBytes();
        double mergeReadPrime = sample.mergeWritePages() == 0 ? 0
                : writePrime * sample.mergeReadPages() / (double) sample.mergeWritePages();
        double writeCost = (sample.flushWritePages() + sample.mergeWritePages() + sample.logTrimWritePages()) / ops;
        double readCost = (sample.queryReadPages() + sample.mergeReadPages()) / ops;
        return new CostDerivative(writePrime, simulatedPrime, mergeReadPrime, queryLevelsPrime, writeCost, readCost, omega,
                gamma, guarded);
    }
}
