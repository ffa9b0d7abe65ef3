package dev.breakwater.common.key;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The one order of keys in Breakwater: unsigned lexicographic comparison of the encoded bytes, a
 * shorter key first when it is a prefix of the longer. With {@link KeyFormat} this is typed order.
 *
 * <p>Stateless and thread-safe.
 */
public final class KeyComparator {

    /** The same order as a {@link Comparator}, for sorted collections of keys. */
    public static final Comparator<byte[]> ORDER = KeyComparator::compare;

    private KeyComparator() {
    }

    public static int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /** Compares {@code a[aOffset, aOffset+aLength)} with {@code b[bOffset, bOffset+bLength)}. */
    public static int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        return Arrays.compareUnsigned(a, aOffset, aOffset + aLength, b, bOffset, bOffset + bLength);
    }
}
