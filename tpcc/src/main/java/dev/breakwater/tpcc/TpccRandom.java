package dev.breakwater.tpcc;

import java.util.SplittableRandom;

/**
 * The random generators of the specification (clause 2.1.6 and 4.3.2): uniform integers, NURand,
 * a-strings and n-strings, zip codes, last names from the syllable table, and "ORIGINAL" data.
 *
 * <p>Thread safety: none; each thread (terminal, loader task) owns one instance.
 */
public final class TpccRandom {

    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    private static final char[] ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final SplittableRandom rnd;
    private final NurandConstants c;

    public TpccRandom(long seed, NurandConstants c) {
        this.rnd = new SplittableRandom(seed);
        this.c = c;
    }

    public NurandConstants constants() {
        return c;
    }

    /** Uniform in [lo, hi]. */
    public int uniform(int lo, int hi) {
        return lo + rnd.nextInt(hi - lo + 1);
    }

    /** Uniform in [lo, hi]. */
    public long uniform(long lo, long hi) {
        return lo + rnd.nextLong(hi - lo + 1);
    }

    public double nextDouble() {
        return rnd.nextDouble();
    }

    public long nextLong() {
        return rnd.nextLong();
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, with this run's C for A. */
    public int nurand(int a, int x, int y) {
        int cc = switch (a) {
            case 255 -> c.cLast();
            case 1023 -> c.cId();
            case 8191 -> c.olIId();
            default -> throw new IllegalArgumentException("no NURand constant for A = " + a);
        };
        return (((uniform(0, a) | uniform(x, y)) + cc) % (y - x + 1)) + x;
    }

    /** A customer number for Payment/Order-Status/New-Order: NURand(1023, 1, 3000). */
    public int customerId() {
        return nurand(1023, 1, Schema.CUSTOMERS);
    }

    /** An item number for New-Order: NURand(8191, 1, 100000). */
    public int itemId() {
        return nurand(8191, 1, Schema.ITEMS);
    }

    /** A last name for a by-name selection: from NURand(255, 0, 999). */
    public String randomLastName() {
        return lastName(nurand(255, 0, 999));
    }

    /** The last name of number {@code n} in [0, 999]: three syllables from its decimal digits. */
    public static String lastName(int n) {
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** A random alphanumeric string of length in [min, max]. */
    public String astring(int min, int max) {
        int len = uniform(min, max);
        char[] s = new char[len];
        for (int i = 0; i < len; i++) {
            s[i] = ALNUM[rnd.nextInt(ALNUM.length)];
        }
        return new String(s);
    }

    /** A random numeric string of length in [min, max]. */
    public String nstring(int min, int max) {
        int len = uniform(min, max);
        char[] s = new char[len];
        for (int i = 0; i < len; i++) {
            s[i] = (char) ('0' + rnd.nextInt(10));
        }
        return new String(s);
    }

    /** A zip code: four random digits followed by "11111". */
    public String zip() {
        return nstring(4, 4) + "11111";
    }

    /** I_DATA / S_DATA: a-string [26, 50]; 10% of them hold "ORIGINAL" at a random position. */
    public String data() {
        String s = astring(26, 50);
        if (rnd.nextInt(10) == 0) {
            int pos = rnd.nextInt(s.length() - 8 + 1);
            s = s.substring(0, pos) + "ORIGINAL" + s.substring(pos + 8);
        }
        return s;
    }
}
