package dev.breakwater.txn.lock;

/**
 * Lock modes of multi-granularity (hierarchical) locking. A node of an index's lock hierarchy
 * (index, key prefixes, key) is locked in one of these modes; the intention modes on an ancestor
 * announce what the transaction holds further down.
 *
 * <ul>
 *   <li>{@link #IS} intention shared: S or IS will be taken below.
 *   <li>{@link #IX} intention exclusive: X or IX (or S) will be taken below.
 *   <li>{@link #S} shared: read of the node and everything below it.
 *   <li>{@link #SIX} S plus IX: read everything below, write some of it.
 *   <li>{@link #X} exclusive: write of the node and everything below it.
 * </ul>
 *
 * <p>Compatibility (symmetric; "+" = may be held at once by different transactions):
 * <pre>
 *          IS  IX  S   SIX X
 *    IS    +   +   +   +   -
 *    IX    +   +   -   -   -
 *    S     +   -   +   -   -
 *    SIX   +   -   -   -   -
 *    X     -   -   -   -   -
 * </pre>
 * Strength is the partial order IS &lt; IX &lt; SIX &lt; X and IS &lt; S &lt; SIX; IX and S are
 * incomparable and their {@linkplain #supremum supremum} is SIX.
 *
 * <p>Thread safety: immutable.
 */
public enum LockMode {
    IS, IX, S, SIX, X;

    private static final boolean T = true;
    private static final boolean F = false;

    /** Indexed by ordinal, in declaration order. */
    private static final boolean[][] COMPATIBLE = {
        //           IS IX S  SIX X
        /* IS  */ {T, T, T, T, F},
        /* IX  */ {T, T, F, F, F},
        /* S   */ {T, F, T, F, F},
        /* SIX */ {T, F, F, F, F},
        /* X   */ {F, F, F, F, F},
    };

    /** Least upper bound, indexed by ordinal. */
    private static final LockMode[][] SUPREMUM = {
        //           IS   IX   S    SIX  X
        /* IS  */ {IS, IX, S, SIX, X},
        /* IX  */ {IX, IX, SIX, SIX, X},
        /* S   */ {S, SIX, S, SIX, X},
        /* SIX */ {SIX, SIX, SIX, SIX, X},
        /* X   */ {X, X, X, X, X},
    };

    /** True if one transaction may hold this mode while another holds {@code other} on the same node. */
    public boolean isCompatibleWith(LockMode other) {
        return COMPATIBLE[ordinal()][other.ordinal()];
    }

    /** True if holding this mode already grants everything {@code other} grants (so no upgrade is needed). */
    public boolean covers(LockMode other) {
        return SUPREMUM[ordinal()][other.ordinal()] == this;
    }

    /**
     * The weakest mode that grants both {@code a} and {@code b}: the mode a holder of {@code a} ends
     * up with after also asking for {@code b} (S + IX = SIX, IS + S = S, anything + X = X).
     */
    public static LockMode supremum(LockMode a, LockMode b) {
        return SUPREMUM[a.ordinal()][b.ordinal()];
    }
}
