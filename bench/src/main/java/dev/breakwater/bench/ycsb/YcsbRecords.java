package dev.breakwater.bench.ycsb;

import java.util.SplittableRandom;
import site.ycsb.Utils;

/**
 * The YCSB record shape shared by the extended driver and the bindings: a string key
 * {@code "user" + fnv64(keynum)} (YCSB's default hashed insert order) and 10 fields
 * {@code field0..field9} of 100 bytes each, about 1 KB per record.
 */
public final class YcsbRecords {

    /** Fields per record. */
    public static final int FIELD_COUNT = 10;
    /** Bytes per field. */
    public static final int FIELD_LENGTH = 100;
    /** The table name the YCSB client uses and the bindings store. */
    public static final String TABLE = "usertable";
    /** Name of the key field in Breakwater datasets. */
    public static final String KEY_FIELD = "ycsb_key";

    private static final String[] FIELD_NAMES = new String[FIELD_COUNT];

    static {
        for (int i = 0; i < FIELD_COUNT; i++) {
            FIELD_NAMES[i] = "field" + i;
        }
    }

    private YcsbRecords() {
    }

    /** {@code field<i>}. */
    public static String fieldName(int i) {
        return FIELD_NAMES[i];
    }

    /** The key of record number {@code keynum}, as YCSB's CoreWorkload builds it with hashed insert order. */
    public static String key(long keynum) {
        return "user" + Utils.fnvhash64(keynum);
    }

    /** {@link #FIELD_LENGTH} random printable ASCII bytes. */
    public static byte[] randomValue(SplittableRandom rnd) {
        byte[] b = new byte[FIELD_LENGTH];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (' ' + rnd.nextInt(95));
        }
        return b;
    }

    /**
     * A field value fully determined by {@code v}: the number in 12 digits followed by filler, so
     * that equal draws give equal values (used for indexed fields whose values follow a Zipfian).
     */
    public static byte[] valueOf(long v) {
        byte[] b = new byte[FIELD_LENGTH];
        String digits = String.format("%012d", v);
        for (int i = 0; i < b.length; i++) {
            b[i] = i < digits.length() ? (byte) digits.charAt(i) : (byte) ('a' + (int) ((v + i) % 26));
        }
        return b;
    }
}
