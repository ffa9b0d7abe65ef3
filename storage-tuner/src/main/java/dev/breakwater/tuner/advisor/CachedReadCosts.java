package dev.breakwater.tuner.advisor;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Z0, Z1 and Q as Breakwater's read path pays them (docs/benchmarks-advisor.md, 2026-11-27): the
 * runs a read probes are L0's groups and each level's runs; a probe reads a Bloom page, and if the
 * filter passes the key, the index pages down to a leaf and the leaf; pages come from the buffer
 * cache when it holds them.
 *
 * <h2>Runs</h2>
 * Newest first, as groups: L0 with {@link EngineShape#l0Runs} runs of one write memory {@code m} each;
 * level {@code i < L} with {@code (K_i + 1)/2} runs holding half its capacity
 * {@code C_i = (T − 1)·T^(i−1)·m} (a level fills from empty to full between merges); the last level
 * holds the rest of the data, {@code D − Σ_{i<L} C_i/2} ({@code D = N·E}), in
 * {@code clamp(bytes / (C_L/K_L) + 1/2, 1, K_L)} runs. A non-empty read finds its key in L0 with
 * probability {@code min(1, ℓ0·m/D)} and in level i with the rest times the level's share of D.
 *
 * <h2>Per read, for each group g of n_g runs, leaf-access rate a_g</h2>
 * <pre>
 *   Z0: n_g probes, each  bloom + f·index + f·leaf_g                       a_g = n_g·f
 *   Z1: u_g = n_g·(reach_g − p_g) + p_g·max(0, n_g − 1)/2 probes that miss, p_g that hit:
 *       (u_g + p_g)·bloom + (f·u_g + p_g)·index + a_g·leaf_g               a_g = p_g + f·u_g
 *   Q:  n_g seeks, each index + leaf_g; the range's own leaves f_seq·S·b_g/P  a_g = n_g + S·b_g/P
 * </pre>
 * with {@code reach_g} the chance a read gets to g (one minus the chances of newer groups),
 * {@code bloom = 1 − metaHit} (0 without filters, which also makes {@code f = 1}),
 * {@code index = H·(1 − metaHit)} and {@code leaf_g = 1 − c_g}.
 *
 * <h2>The cache</h2>
 * The buffer cache has {@code M − m} bytes. Filter and index pages are read by every read, so they
 * are the hottest and are cached first: {@code metaHit = min(1, cache / (filter + index bytes))},
 * index bytes {@code (D + ℓ0·m)·indexEntryBytes / P}. What is left holds leaves, hottest first: a
 * group's page is read at rate {@code a_g / (b_g / P)}, and the groups are filled in that order
 * ({@code c_g} the fraction of g cached). This is the best a cache could hold (an LFU), close to what
 * a clock cache holds under uniform keys, where each run's pages are equally hot; it is what makes
 * small, recently written runs (L0, level 1) cost a scan almost nothing. Each kind is priced with its
 * own access rates, as the bench measures it.
 *
 * <h2>Skewed keys ({@link Environment#keySkew()} θ &gt; 0, session 9)</h2>
 * Within a group the k-th hottest page is read at rate {@code a_g·k^−θ / Z(n_g)}, {@code n_g} its
 * pages and {@code Z(x) = 1 + (x^(1−θ) − 1)/(1 − θ)} (for x &gt;= 1; {@code 1 + ln x} at θ = 1;
 * {@code x} below 1 page) the continuous generalized harmonic number. The cache holds every page
 * whose rate is above a threshold λ, chosen so the pages fill it: group g keeps its
 * {@code k_g = min(n_g, (a_g/(λ·Z(n_g)))^(1/θ))} hottest pages, which serve
 * {@code Z(k_g)/Z(n_g)} of its reads. So the cache's first pages save many reads and its last few,
 * where the uniform model values every page alike: the value of a MiB of cache falls as the cache
 * grows. θ = 0 is the uniform fill above.
 *
 * <p>Thread safety: stateless; static methods only.
 */
final class CachedReadCosts {

    private CachedReadCosts() {
    }

    /** One group of runs: {@code runs} runs of {@code bytes} in all; {@code found} the chance a non-empty read's key is here. */
    record Group(double runs, double bytes, double found) {
    }

    /** {Z0, Z1, Q, data cache hit (of all data bytes)}. */
    static double[] costs(Environment env, EngineShape shape, Design d, int levels, double f) {
        Group[] g = groups(env, shape, d, levels);
        double dataBytes = 0;
        for (Group x : g) {
            dataBytes += x.bytes();
        }
        double cache = Math.max(0, env.totalMemoryBytes() - d.writeMemoryBytes());
        double meta = d.filterBytes(env.entries()) + dataBytes * shape.indexEntryBytes() / env.pageBytes();
        double metaHit = meta <= 0 ? 1 : Math.min(1, cache / meta);
        double dataCache = Math.max(0, cache - meta);
        double bloom = d.bloomBitsPerKey() > 0 ? 1 - metaHit : 0;
        double index = shape.indexHeight() * (1 - metaHit);
        double page = env.pageBytes();

        // Z0
        double[] a = new double[g.length];
        double fixed = 0;
        for (int i = 0; i < g.length; i++) {
            a[i] = g[i].runs() * f;
            fixed += g[i].runs() * (bloom + f * index);
        }
        double theta = env.keySkew();
        double z0 = fixed + leafMisses(g, a, a, dataCache, page, theta);

        // Z1
        double reach = 1;
        fixed = 0;
        for (int i = 0; i < g.length; i++) {
            double p = g[i].found();
            double misses = g[i].runs() * Math.max(0, reach - p) + p * Math.max(0, g[i].runs() - 1) / 2;
            a[i] = p + f * misses;
            fixed += (misses + p) * bloom + (f * misses + p) * index;
            reach -= p;
        }
        double z1 = fixed + leafMisses(g, a, a, dataCache, page, theta);

        // Q
        double[] cost = new double[g.length];
        fixed = 0;
        for (int i = 0; i < g.length; i++) {
            double rangeLeaves = env.rangeSelectivity() * g[i].bytes() / page;
            a[i] = g[i].runs() + rangeLeaves;
            cost[i] = g[i].runs() + env.seqCost() * rangeLeaves;
            fixed += g[i].runs() * index;
        }
        double q = fixed + leafMisses(g, a, cost, dataCache, page, theta);
        return new double[] {z0, z1, q, dataBytes == 0 ? 1 : Math.min(1, dataCache / dataBytes)};
    }

    /** The run groups of design {@code d}, newest first: L0, then levels 1..L. */
    static Group[] groups(Environment env, EngineShape shape, Design d, int levels) {
        double dataBytes = env.dataBytes();
        double m = d.writeMemoryBytes();
        int t = d.sizeRatio();
        Group[] g = new Group[levels + 1];
        double l0Bytes = shape.l0Runs() * m;
        double inL0 = Math.min(1, l0Bytes / dataBytes);
        g[0] = new Group(shape.l0Runs(), l0Bytes, inL0);
        double upper = 0;
        for (int i = 1; i < levels; i++) {
            double half = (t - 1) * Math.pow(t, i - 1) * m / 2;
            g[i] = new Group((d.runs(i) + 1) / 2.0, half, (1 - inL0) * half / dataBytes);
            upper += half;
        }
        double last = dataBytes - upper;
        int k = d.runs(levels);
        double share = (t - 1) * Math.pow(t, levels - 1) * m / k;
        double runs = Math.max(1, Math.min(k, last / share + 0.5));
        g[levels] = new Group(runs, last, (1 - inL0) * last / dataBytes);
        return g;
    }

    /**
     * Σ_g cost_g·(1 − hit_g) with pages read with Zipf exponent {@code theta} within each group (the
     * threshold fill of the class comment); {@code theta} 0 is {@link #leafMisses(Group[], double[],
     * double[], double, double)}.
     */
    static double leafMisses(Group[] g, double[] access, double[] cost, double cacheBytes, double pageBytes, double theta) {
        if (theta <= 0) {
            return leafMisses(g, access, cost, cacheBytes, pageBytes);
        }
        double[] pages = new double[g.length];
        double[] scale = new double[g.length];
        double all = 0;
        double hi = 0;
        for (int i = 0; i < g.length; i++) {
            pages[i] = Math.max(0, g[i].bytes()) / pageBytes;
            scale[i] = pages[i] <= 0 ? 0 : access[i] / zipfSum(pages[i], theta);
            all += pages[i];
            hi = Math.max(hi, scale[i]);
        }
        double capacity = cacheBytes / pageBytes;
        double misses = 0;
        if (all <= capacity) {
            return 0;
        }
        if (hi <= 0) { // no group is read: no page is worth keeping
            for (int i = 0; i < g.length; i++) {
                misses += pages[i] > 0 ? cost[i] : 0;
            }
            return misses;
        }
        // bisect ln λ between lnLo (every page kept: more than the capacity) and lnHi (above every rate: nothing kept)
        // for the largest fill <= capacity
        double lnHi = Math.log(hi) + 1;
        double lnLo = lnHi - 200;
        for (int it = 0; it < 60; it++) {
            double mid = (lnHi + lnLo) / 2;
            if (keptPages(pages, scale, mid, theta) > capacity) {
                lnLo = mid;
            } else {
                lnHi = mid;
            }
        }
        for (int i = 0; i < g.length; i++) {
            if (pages[i] <= 0) {
                continue;
            }
            double kept = kept(pages[i], scale[i], lnHi, theta);
            misses += cost[i] * (1 - zipfSum(kept, theta) / zipfSum(pages[i], theta));
        }
        return misses;
    }

    private static double keptPages(double[] pages, double[] scale, double lnLambda, double theta) {
        double sum = 0;
        for (int i = 0; i < pages.length; i++) {
            sum += kept(pages[i], scale[i], lnLambda, theta);
        }
        return sum;
    }

    /** Pages of a group whose rate {@code scale·k^−θ} is at least λ = e^lnLambda. */
    private static double kept(double pages, double scale, double lnLambda, double theta) {
        if (pages <= 0 || scale <= 0 || Math.log(scale) < lnLambda) {
            return 0;
        }
        return Math.min(pages, Math.exp((Math.log(scale) - lnLambda) / theta));
    }

    /**
     * Z(x): the continuous generalized harmonic number Σ_{k<=x} k^−θ, as {@code 1 + ∫_1^x k^−θ dk} for
     * x &gt;= 1 and {@code x} below one page.
     */
    static double zipfSum(double x, double theta) {
        if (x <= 1) {
            return Math.max(0, x);
        }
        double lnx = Math.log(x);
        double e = 1 - theta;
        if (Math.abs(e) < 1e-9) {
            return 1 + lnx;
        }
        return 1 + Math.expm1(e * lnx) / e;
    }

    /**
     * Σ_g cost_g·(1 − c_g): the cache ({@code cacheBytes}) holds the groups' pages hottest first, a
     * group's pages being read at rate {@code access_g / pages_g}.
     */
    static double leafMisses(Group[] g, double[] access, double[] cost, double cacheBytes, double pageBytes) {
        Integer[] order = new Integer[g.length];
        for (int i = 0; i < g.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> g[i].bytes() <= 0 ? Double.POSITIVE_INFINITY
                : access[i] / (g[i].bytes() / pageBytes)).reversed());
        double left = cacheBytes;
        double misses = 0;
        for (int i : order) {
            double cached = g[i].bytes() <= 0 ? 1 : Math.min(1, left / g[i].bytes());
            left -= cached * g[i].bytes();
            misses += cost[i] * (1 - cached);
        }
        return misses;
    }
}
