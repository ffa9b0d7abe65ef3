package dev.breakwater.tuner.advisor;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The discrete designs Breakwater can run, enumerated exhaustively: every size ratio in a range, every
 * uniform number of runs per level K in [1, T − 1] (or only leveling and tiering), every Bloom
 * bits-per-key value in a list, and for each of those the write-memory sizes at which the level count
 * changes.
 *
 * <p>Why those write-memory sizes are enough: the model's costs depend on the write memory only
 * through the level count L and (with the cache model) the memory left to the cache, which shrinks as
 * the write memory grows. So among the write-memory sizes that give the same L the smallest is best
 * (or, without a cache, as good as any), and the smallest size giving L levels is
 * {@link LsmCostModel#minWriteMemoryFor}. The candidates are those sizes for every reachable L, each
 * raised to {@code minWriteMemory}, and kept if the design fits in memory with
 * {@code minCacheBytes} to spare. No continuous optimum is rounded.
 *
 * <p>When merge writes fall with the write memory within a level count
 * ({@link LsmCostModel#writeCostFollowsWriteMemory()}, Breakwater's level sizing) the smallest size
 * is no longer the best of its level count: the candidates then also include a grid from
 * {@code minWriteMemory} to the total memory in steps of {@link #gridStep} (1 MiB up to 64 MiB of
 * memory, then 1/64 of it in whole MiB: at most 64 sizes per design, so the search stays in seconds),
 * near the resolution at which the advice is applied ({@code tuner-seed} and {@code write-memory}
 * take whole MiB).
 *
 * <p>Immutable; thread-safe.
 *
 * @param minSizeRatio    the smallest T searched (&gt;= 2)
 * @param maxSizeRatio    the largest T searched
 * @param anyRuns         true: every K in [1, T − 1] (needs the runs-per-level merge policy);
 *                        false: leveling (K = 1) and tiering (K = T − 1) only
 * @param levelingOnly    true: K = 1 only (overrides {@code anyRuns}); for advice on the memory split of
 *                        an engine that runs leveling
 * @param bloomBits       the bits-per-key values searched
 * @param minWriteMemory  the least write memory the engine runs with (bytes)
 * @param minCacheBytes   memory the buffer cache keeps beyond the filters (bytes); 0 in the slides' model
 */
public record DesignSpace(int minSizeRatio, int maxSizeRatio, boolean anyRuns, boolean levelingOnly, double[] bloomBits,
                          long minWriteMemory, long minCacheBytes) {

    public DesignSpace {
        if (minSizeRatio < 2 || maxSizeRatio < minSizeRatio) {
            throw new IllegalArgumentException("need 2 <= min size ratio <= max size ratio, got " + minSizeRatio + ".." + maxSizeRatio);
        }
        if (bloomBits.length == 0) {
            throw new IllegalArgumentException("need at least one Bloom bits-per-key value");
        }
        bloomBits = bloomBits.clone();
        if (minWriteMemory < 1 || minCacheBytes < 0) {
            throw new IllegalArgumentException("min write memory must be >= 1 and min cache >= 0 bytes");
        }
    }

    @Override
    public double[] bloomBits() {
        return bloomBits.clone();
    }

    /** T in 2..20, any K, 0..16 bits per key, at least 1 MiB of write memory and no cache floor. */
    public static DesignSpace defaults() {
        double[] bits = new double[17];
        for (int i = 0; i < bits.length; i++) {
            bits[i] = i;
        }
        return new DesignSpace(2, 20, true, false, bits, 1L << 20, 0);
    }

    /** A copy restricted to leveling and tiering (what engines without a runs-per-level picker run). */
    public DesignSpace levelingAndTieringOnly() {
        return new DesignSpace(minSizeRatio, maxSizeRatio, false, levelingOnly, bloomBits, minWriteMemory, minCacheBytes);
    }

    /** A copy restricted to leveling (K = 1). */
    public DesignSpace levelingOnlySpace() {
        return new DesignSpace(minSizeRatio, maxSizeRatio, anyRuns, true, bloomBits, minWriteMemory, minCacheBytes);
    }

    /** A copy with other write-memory and cache floors. */
    public DesignSpace withFloors(long writeMemory, long cacheBytes) {
        return new DesignSpace(minSizeRatio, maxSizeRatio, anyRuns, levelingOnly, bloomBits, writeMemory, cacheBytes);
    }

    /** A copy searching T in [lo, hi]. */
    public DesignSpace withSizeRatios(int lo, int hi) {
        return new DesignSpace(lo, hi, anyRuns, levelingOnly, bloomBits, minWriteMemory, minCacheBytes);
    }

    /** Calls {@code sink} with every feasible candidate design under {@code model}. */
    public void forEach(LsmCostModel model, Consumer<Design> sink) {
        Environment env = model.environment();
        for (int t = minSizeRatio; t <= maxSizeRatio; t++) {
            List<Long> memories = writeMemories(model, t);
            List<Integer> ks = new ArrayList<>();
            if (levelingOnly) {
                ks.add(1);
            } else if (anyRuns) {
                for (int k = 1; k <= t - 1; k++) {
                    ks.add(k);
                }
            } else {
                ks.add(1);
                if (t - 1 != 1) {
                    ks.add(t - 1);
                }
            }
            for (double h : bloomBits) {
                double filter = h * env.entries() / 8.0;
                for (long m : memories) {
                    if (m + filter + minCacheBytes > env.totalMemoryBytes()) {
                        continue;
                    }
                    for (int k : ks) {
                        sink.accept(Design.uniform(m, h, t, k));
                    }
                }
            }
        }
    }

    /** Every candidate, as a list. */
    public List<Design> candidates(LsmCostModel model) {
        List<Design> all = new ArrayList<>();
        forEach(model, all::add);
        return all;
    }

    private List<Long> writeMemories(LsmCostModel model, int t) {
        TreeSet<Long> sizes = new TreeSet<>();
        long total = model.environment().totalMemoryBytes();
        for (int levels = 1; levels <= 64; levels++) {
            long m = Math.max(minWriteMemory, model.minWriteMemoryFor(levels, t));
            if (m <= total) {
                sizes.add(m);
            }
            if (m == minWriteMemory) {
                break; // deeper trees would need less than the floor: the floor is their candidate
            }
        }
        if (model.writeCostFollowsWriteMemory()) {
            long step = gridStep(total);
            for (long m = minWriteMemory; m <= total; m += step) {
                sizes.add(m);
            }
        }
        return new ArrayList<>(sizes);
    }

    /** The grid's step for {@code totalMemory}: 1 MiB, or 1/64 of the memory rounded up to whole MiB. */
    static long gridStep(long totalMemory) {
        long mib = 1L << 20;
        long step = (totalMemory / 64 + mib - 1) / mib * mib;
        return Math.max(mib, step);
    }
}
