package dev.breakwater.txn.lock;

import static dev.breakwater.txn.lock.LockMode.IS;
import static dev.breakwater.txn.lock.LockMode.IX;
import static dev.breakwater.txn.lock.LockMode.S;
import static dev.breakwater.txn.lock.LockMode.SIX;
import static dev.breakwater.txn.lock.LockMode.X;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Checks the compatibility matrix cell by cell against the textbook table, and the supremum against
 * a definition independent of the implementation's table: a mode is stronger when it conflicts
 * with a superset of modes, and the supremum is the weakest mode at least as strong as both.
 */
class LockModeTest {

    /** Rows and columns in the order IS, IX, S, SIX, X (Gray et al.). */
    private static final String[] EXPECTED = {
        "++++-",
        "++---",
        "+-+--",
        "+----",
        "-----",
    };

    @Test
    void compatibilityMatrixMatchesTextbookAndIsSymmetric() {
        LockMode[] modes = LockMode.values();
        assertEquals(5, modes.length);
        for (LockMode a : modes) {
            for (LockMode b : modes) {
                boolean expected = EXPECTED[a.ordinal()].charAt(b.ordinal()) == '+';
                assertEquals(expected, a.isCompatibleWith(b), a + " vs " + b);
                assertEquals(a.isCompatibleWith(b), b.isCompatibleWith(a), "symmetry " + a + " " + b);
            }
        }
    }

    @Test
    void supremumIsTheLeastUpperBound() {
        for (LockMode a : LockMode.values()) {
            for (LockMode b : LockMode.values()) {
                LockMode sup = LockMode.supremum(a, b);
                assertEquals(leastUpperBound(a, b), sup, a + " + " + b);
                assertEquals(sup, LockMode.supremum(b, a), "commutative " + a + " " + b);
                assertTrue(sup.covers(a) && sup.covers(b), sup + " covers " + a + " and " + b);
                for (LockMode c : LockMode.values()) {
                    assertEquals(LockMode.supremum(LockMode.supremum(a, b), c),
                            LockMode.supremum(a, LockMode.supremum(b, c)), "associative");
                }
            }
            assertEquals(a, LockMode.supremum(a, a), "idempotent " + a);
        }
    }

    @Test
    void namedCombinations() {
        assertEquals(SIX, LockMode.supremum(S, IX));
        assertEquals(SIX, LockMode.supremum(IX, S));
        assertEquals(S, LockMode.supremum(IS, S));
        assertEquals(IX, LockMode.supremum(IS, IX));
        for (LockMode m : LockMode.values()) {
            assertEquals(X, LockMode.supremum(m, X));
            assertEquals(m, LockMode.supremum(m, IS));
        }
    }

    @Test
    void coversMatchesConflictInclusion() {
        for (LockMode a : LockMode.values()) {
            for (LockMode b : LockMode.values()) {
                assertEquals(stronger(a, b), a.covers(b), a + " covers " + b);
            }
        }
    }

    /** True if {@code a} conflicts with every mode {@code b} conflicts with. */
    private static boolean stronger(LockMode a, LockMode b) {
        return compatibleSet(b).containsAll(compatibleSet(a));
    }

    private static Set<LockMode> compatibleSet(LockMode m) {
        Set<LockMode> out = EnumSet.noneOf(LockMode.class);
        for (LockMode o : LockMode.values()) {
            if (EXPECTED[m.ordinal()].charAt(o.ordinal()) == '+') {
                out.add(o);
            }
        }
        return out;
    }

    private static LockMode leastUpperBound(LockMode a, LockMode b) {
        LockMode best = null;
        for (LockMode c : LockMode.values()) {
            if (stronger(c, a) && stronger(c, b) && (best == null || stronger(best, c))) {
                best = c;
            }
        }
        return best;
    }
}
