package dev.breakwater.common.key;

import java.util.Arrays;

/**
 * Helpers that turn key prefixes into scan bounds. A prefix scan over {@code p} visits the keys
 * {@code k} with {@code p <= k < prefixEnd(p)} (or {@code p <= k} when {@code prefixEnd(p)} is null).
 *
 * <p>Stateless and thread-safe.
 */
public final class KeyRanges {

    private KeyRanges() {
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix}: the prefix with
     * trailing 0xFF bytes removed and its last byte incremented. Returns {@code null} when there is
     * no such key, i.e. when {@code prefix} is empty or all 0xFF (every key from the prefix on
     * matches, so the scan has no upper bound). The argument is not modified.
     */
    public static byte[] prefixEnd(byte[] prefix) {
        int last = prefix.length - 1;
        while (last >= 0 && prefix[last] == (byte) 0xFF) {
            last--;
        }
        if (last < 0) {
            return null;
        }
        byte[] end = Arrays.copyOf(prefix, last + 1);
        end[last]++;
        return end;
    }

    /** True if {@code key} starts with {@code prefix}. */
    public static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length
                && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
