package dev.breakwater.bench.ycsb;

import java.util.SplittableRandom;

/**
 * The "x% of draws go to y% of the items" distribution over {@code 0..n-1}: the first
 * {@code round(y·n)} items (at least one) are hot and share {@code x%} of the draws uniformly; the
 * others share the rest uniformly. {@code 80/20} over 10 datasets sends 80% of operations to
 * datasets 0 and 1. With one item, or when every item is hot, draws are uniform.
 */
public final class Hotspot {

    private final int n;
    private final int hot;
    private final double hotOpFraction;

    /** A hotspot distribution over {@code n} items: {@code hotOpFraction} of draws to {@code hotSetFraction} of them. */
    public Hotspot(int n, double hotOpFraction, double hotSetFraction) {
        if (n < 1 || hotOpFraction < 0 || hotOpFraction > 1 || hotSetFraction <= 0 || hotSetFraction > 1) {
            throw new IllegalArgumentException("hotspot over " + n + " items: " + hotOpFraction + "/" + hotSetFraction);
        }
        this.n = n;
        this.hot = (int) Math.max(1, Math.min(n, Math.round(hotSetFraction * n)));
        this.hotOpFraction = hotOpFraction;
    }

    /** Parses {@code "x/y"} in percent, e.g. {@code "80/20"}. */
    public static Hotspot parse(String spec, int n) {
        String[] parts = spec.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("hotspot must be x/y in percent, e.g. 80/20: " + spec);
        }
        return new Hotspot(n, Double.parseDouble(parts[0]) / 100, Double.parseDouble(parts[1]) / 100);
    }

    /** The next item. */
    public int next(SplittableRandom rnd) {
        if (hot == n) {
            return rnd.nextInt(n);
        }
        return rnd.nextDouble() < hotOpFraction ? rnd.nextInt(hot) : hot + rnd.nextInt(n - hot);
    }

    /** Number of hot items. */
    public int hotItems() {
        return hot;
    }
}
