package dev.breakwater.tpcc;

import java.util.random.RandomGenerator;

/**
 * The run-time constants C of NURand(A, x, y) (clause 2.1.6) for A = 255 (C_LAST), 1023 (C_ID) and
 * 8191 (OL_I_ID).
 *
 * <p>Invariant (clause 2.1.6.1): C-Run for C_LAST differs from the C-Load used by the loader by a
 * delta in [65, 119] that is neither 96 nor 112. C_ID and OL_I_ID have no load-time use, so any
 * value in range is valid at run time.
 *
 * @param cLast  C for A = 255, in [0, 255]
 * @param cId    C for A = 1023, in [0, 1023]
 * @param olIId  C for A = 8191, in [0, 8191]
 */
public record NurandConstants(int cLast, int cId, int olIId) {

    /** Constants for the loader: random values in range. */
    public static NurandConstants forLoad(RandomGenerator rnd) {
        return new NurandConstants(rnd.nextInt(256), rnd.nextInt(1024), rnd.nextInt(8192));
    }

    /** Constants for a run against a database loaded with C-Load {@code cLastLoad}, chosen per clause 2.1.6.1. */
    public static NurandConstants forRun(int cLastLoad, RandomGenerator rnd) {
        while (true) {
            int cRun = rnd.nextInt(256);
            int delta = Math.abs(cRun - cLastLoad);
            if (isValidDelta(delta)) {
                return new NurandConstants(cRun, rnd.nextInt(1024), rnd.nextInt(8192));
            }
        }
    }

    /** The rule of clause 2.1.6.1 on |C-Run - C-Load| for C_LAST. */
    public static boolean isValidDelta(int delta) {
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }
}
