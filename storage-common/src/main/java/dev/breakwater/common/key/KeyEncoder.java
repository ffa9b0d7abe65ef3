package dev.breakwater.common.key;

import java.util.Arrays;

/**
 * Builds encoded keys ({@link KeyFormat}) field by field into a reusable, growable byte buffer.
 *
 * <pre>{@code
 * KeyEncoder enc = new KeyEncoder();
 * enc.reset().writeInt32(warehouse).writeInt32(district).writeString(lastName);
 * tree.get(enc.array(), 0, enc.length());   // or enc.toByteArray() for a key to keep
 * }</pre>
 *
 * <p>Invariants: (1) bytes {@code [0, length())} of {@link #array()} are the encoding of the fields
 * written since the last {@link #reset()}, each complete; (2) once the buffer has grown to the
 * largest key written, writing a field allocates nothing.
 *
 * <p>Thread safety: not thread-safe; use one encoder per thread. {@link #array()} exposes the
 * internal buffer, which the next write or {@link #reset()} may overwrite or replace.
 */
public final class KeyEncoder {

    private static final int DEFAULT_CAPACITY = 64;

    private byte[] buf;
    private int len;

    public KeyEncoder() {
        this(DEFAULT_CAPACITY);
    }

    public KeyEncoder(int initialCapacity) {
        if (initialCapacity < 1) {
            throw new IllegalArgumentException("initial capacity must be positive, got " + initialCapacity);
        }
        this.buf = new byte[initialCapacity];
    }

    /** Forgets all fields written so far; keeps the buffer. */
    public KeyEncoder reset() {
        len = 0;
        return this;
    }

    /** Number of encoded bytes. */
    public int length() {
        return len;
    }

    /** The internal buffer; only bytes {@code [0, length())} are meaningful. Not a copy. */
    public byte[] array() {
        return buf;
    }

    /** A copy of the encoded bytes. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    public KeyEncoder writeNull() {
        ensure(1);
        buf[len++] = KeyFormat.TAG_NULL;
        return this;
    }

    public KeyEncoder writeInt32(int v) {
        ensure(1 + KeyFormat.INT32_LENGTH);
        buf[len++] = KeyFormat.TAG_INT32;
        putInt(KeyFormat.encodeInt32Bits(v));
        return this;
    }

    public KeyEncoder writeInt64(long v) {
        ensure(1 + KeyFormat.INT64_LENGTH);
        buf[len++] = KeyFormat.TAG_INT64;
        putLong(KeyFormat.encodeInt64Bits(v));
        return this;
    }

    /** Writes a double in {@link Double#compare} order; see {@link KeyFormat} for -0.0 and NaN. */
    public KeyEncoder writeFloat64(double v) {
        ensure(1 + KeyFormat.INT64_LENGTH);
        buf[len++] = KeyFormat.TAG_FLOAT64;
        putLong(KeyFormat.encodeFloat64Bits(v));
        return this;
    }

    /**
     * Writes a string as escaped, terminated UTF-8.
     *
     * @throws IllegalArgumentException if {@code s} contains an unpaired surrogate (it has no UTF-8
     *     encoding, and silently replacing it would break round trips); the encoder is then left as
     *     it was before the call
     */
    public KeyEncoder writeString(String s) {
        writeStringPrefix(s);
        writeTerminator();
        return this;
    }

    /** Writes a byte array as escaped, terminated bytes. */
    public KeyEncoder writeBytes(byte[] b) {
        writeBytesPrefix(b);
        writeTerminator();
        return this;
    }

    /**
     * Writes a STRING field without its terminator. The result is a byte prefix of the encoding of
     * every key whose field here is a string starting with {@code prefix} (and whose earlier fields
     * are those already written), so it can bound a prefix scan with {@link KeyRanges#prefixEnd}.
     * No field may be written after it.
     */
    public KeyEncoder writeStringPrefix(String prefix) {
        int start = len;
        ensure(1 + prefix.length());
        buf[len++] = KeyFormat.TAG_STRING;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c < 0x80) {
                putEscaped((byte) c);
            } else if (c < 0x800) {
                ensure(2);
                buf[len++] = (byte) (0xC0 | (c >>> 6));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                ensure(3);
                buf[len++] = (byte) (0xE0 | (c >>> 12));
                buf[len++] = (byte) (0x80 | ((c >>> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (c & 0x3F));
            } else {
                char low = i + 1 < prefix.length() ? prefix.charAt(i + 1) : 0;
                if (!Character.isHighSurrogate(c) || !Character.isLowSurrogate(low)) {
                    len = start;
                    throw new IllegalArgumentException("string has an unpaired surrogate at index " + i
                            + " and cannot be encoded as UTF-8");
                }
                int cp = Character.toCodePoint(c, low);
                i++;
                ensure(4);
                buf[len++] = (byte) (0xF0 | (cp >>> 18));
                buf[len++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
                buf[len++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
                buf[len++] = (byte) (0x80 | (cp & 0x3F));
            }
        }
        return this;
    }

    /** Like {@link #writeStringPrefix} for a BYTES field. No field may be written after it. */
    public KeyEncoder writeBytesPrefix(byte[] prefix) {
        ensure(1 + prefix.length);
        buf[len++] = KeyFormat.TAG_BYTES;
        for (byte b : prefix) {
            putEscaped(b);
        }
        return this;
    }

    private void writeTerminator() {
        ensure(2);
        buf[len++] = KeyFormat.ESCAPE;
        buf[len++] = KeyFormat.TERMINATOR;
    }

    private void putEscaped(byte b) {
        if (b == KeyFormat.ESCAPE) {
            ensure(2);
            buf[len++] = KeyFormat.ESCAPE;
            buf[len++] = KeyFormat.ESCAPED_ZERO;
        } else {
            ensure(1);
            buf[len++] = b;
        }
    }

    private void putInt(int v) {
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    private void putLong(long v) {
        putInt((int) (v >>> 32));
        putInt((int) v);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            long wanted = Math.max((long) buf.length * 2, (long) len + extra);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("key longer than " + (Integer.MAX_VALUE - 8) + " bytes");
            }
            buf = Arrays.copyOf(buf, (int) wanted);
        }
    }
}
