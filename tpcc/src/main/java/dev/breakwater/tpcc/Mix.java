package dev.breakwater.tpcc;

import java.util.Locale;

/**
 * A transaction mix: a weight in percent for each {@link TxType}, drawn by weighted random choice.
 * {@link #STANDARD} is the minimum mix of clause 5.2.3 (45/43/4/4/4); {@link #READ_MOSTLY} gives the
 * updating transactions 5% in total and the read-only ones 95%.
 *
 * <p>Thread safety: immutable.
 */
public enum Mix {
    STANDARD(45, 43, 4, 4, 4),
    READ_MOSTLY(2, 2, 48, 1, 47);

    /** Weights in {@link TxType} order: NewOrder, Payment, OrderStatus, Delivery, StockLevel. */
    private final int[] weights;

    Mix(int... weights) {
        this.weights = weights;
    }

    public int weight(TxType type) {
        return weights[type.ordinal()];
    }

    /** A transaction type drawn with this mix's weights. */
    public TxType pick(TpccRandom rnd) {
        int x = rnd.uniform(1, 100);
        for (TxType t : TxType.values()) {
            x -= weights[t.ordinal()];
            if (x <= 0) {
                return t;
            }
        }
        throw new IllegalStateException("weights of " + this + " do not sum to 100");
    }

    /** Parses "standard" or "read-mostly". */
    public static Mix parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
