package dev.breakwater.common.key;

/**
 * The byte layout of an encoded key: an order-preserving encoding of a sequence of typed fields,
 * such that comparing two encoded keys as unsigned bytes ({@link KeyComparator}) gives the same
 * order as comparing their fields one by one in typed order.
 *
 * <p>A key is the concatenation of its field encodings. Each field starts with a one-byte tag:
 *
 * <pre>
 *  tag   meaning   payload after the tag                     typed order of the payload
 *  ----  --------  ----------------------------------------  ----------------------------------
 *  0x00  reserved  (never written; free for a "below every key" sentinel)
 *  0x01  NULL      none                                      null sorts before every non-null value
 *  0x10  INT32     4 bytes big endian, sign bit flipped      Integer.compare
 *  0x11  INT64     8 bytes big endian, sign bit flipped      Long.compare
 *  0x12  FLOAT64   8 bytes big endian, see below             Double.compare
 *  0x13  STRING    UTF-8, escaped, terminated (see below)    Unicode code point order
 *  0x14  BYTES     raw bytes, escaped, terminated            Arrays.compareUnsigned
 *  0xFF  reserved  (never written; free for an "above every key" sentinel)
 * </pre>
 *
 * <b>FLOAT64.</b> The IEEE 754 bits ({@link Double#doubleToLongBits}, which maps every NaN to the
 * one canonical NaN) are transformed: if the sign bit is set all bits are inverted, otherwise only
 * the sign bit is. The resulting order is exactly {@link Double#compare}:
 * {@code -Infinity < negative numbers < -0.0 < +0.0 < positive numbers < +Infinity < NaN}.
 * So {@code -0.0} and {@code +0.0} are distinct keys, and NaN is a key that sorts last; a caller
 * who wants them equal must normalize before encoding. NaN payloads are not preserved.
 *
 * <pre>
 *  STRING / BYTES payload:   data byte 0x00  -&gt;  0x00 0xFF
 *                            data byte b != 0  -&gt;  b
 *                            end of value      -&gt;  0x00 0x01   (the terminator)
 * </pre>
 *
 * The escape keeps field encodings prefix-free: a 0x00 in the payload is always followed by 0xFF
 * (data) or 0x01 (end), and the terminator sorts below any data byte, so a value that is a proper
 * prefix of another sorts first even when more fields follow it. Strings are encoded as UTF-8,
 * whose byte order is code point order (this differs from {@link String#compareTo}, which compares
 * UTF-16 units, for characters above U+FFFF). Strings with unpaired surrogates are rejected.
 *
 * <p>Consequences that callers may rely on:
 * <ol>
 *   <li>Every field encoding is prefix-free, so the order of composite keys is the lexicographic
 *       order of their fields, and a key that is a field-prefix of another sorts first.</li>
 *   <li>The encoding of fields {@code f1..fk} is a byte prefix of the encoding of every key that
 *       starts with {@code f1..fk}; {@link KeyRanges#prefixEnd} turns it into a scan bound.</li>
 *   <li>Fields of different types order by tag; within a schema a field has one type, so only the
 *       NULL tag matters there.</li>
 * </ol>
 *
 * <p>This class is stateless and thread-safe.
 */
public final class KeyFormat {

    public static final byte TAG_NULL = 0x01;
    public static final byte TAG_INT32 = 0x10;
    public static final byte TAG_INT64 = 0x11;
    public static final byte TAG_FLOAT64 = 0x12;
    public static final byte TAG_STRING = 0x13;
    public static final byte TAG_BYTES = 0x14;

    /** First byte of an escape pair or of the terminator in STRING and BYTES payloads. */
    public static final byte ESCAPE = 0x00;
    /** Second byte of the pair that stands for a data byte 0x00. */
    public static final byte ESCAPED_ZERO = (byte) 0xFF;
    /** Second byte of the terminator pair. */
    public static final byte TERMINATOR = 0x01;

    /** Length of the payload of an INT32 field, after the tag. */
    public static final int INT32_LENGTH = 4;
    /** Length of the payload of INT64 and FLOAT64 fields, after the tag. */
    public static final int INT64_LENGTH = 8;

    private KeyFormat() {
    }

    /** The 32 bits written for an INT32 value: unsigned order of the result is signed order of {@code v}. */
    public static int encodeInt32Bits(int v) {
        return v ^ Integer.MIN_VALUE;
    }

    public static int decodeInt32Bits(int bits) {
        return bits ^ Integer.MIN_VALUE;
    }

    /** The 64 bits written for an INT64 value: unsigned order of the result is signed order of {@code v}. */
    public static long encodeInt64Bits(long v) {
        return v ^ Long.MIN_VALUE;
    }

    public static long decodeInt64Bits(long bits) {
        return bits ^ Long.MIN_VALUE;
    }

    /** The 64 bits written for a FLOAT64 value: unsigned order of the result is {@link Double#compare} order. */
    public static long encodeFloat64Bits(double v) {
        long bits = Double.doubleToLongBits(v);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    public static double decodeFloat64Bits(long encoded) {
        long bits = encoded < 0 ? encoded ^ Long.MIN_VALUE : ~encoded;
        return Double.longBitsToDouble(bits);
    }
}
