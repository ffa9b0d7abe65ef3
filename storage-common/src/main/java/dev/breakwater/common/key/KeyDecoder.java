package dev.breakwater.common.key;

import java.nio.charset.StandardCharsets;

/**
 * Reads the fields of an encoded key ({@link KeyFormat}) in order. A flyweight: {@link #wrap}
 * points it at another key without allocating.
 *
 * <pre>{@code
 * KeyDecoder dec = new KeyDecoder().wrap(key);
 * int w = dec.readInt32();
 * String last = dec.isNull() ? dec.readNull() : dec.readString();
 * }</pre>
 *
 * <p>Invariants: {@code offset <= position <= end}, and {@code position} is always at the start of
 * a field or at {@code end}.
 *
 * <p>Errors: reading a field as the wrong type throws {@link IllegalStateException} and does not
 * move the position; bytes that are not a valid encoding throw {@link IllegalArgumentException}.
 *
 * <p>Thread safety: not thread-safe; the wrapped array must not change while it is read.
 */
public final class KeyDecoder {

    private byte[] buf = new byte[0];
    private int start;
    private int pos;
    private int end;

    public KeyDecoder wrap(byte[] key) {
        return wrap(key, 0, key.length);
    }

    public KeyDecoder wrap(byte[] key, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > key.length || offset + length < 0) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", array " + key.length);
        }
        this.buf = key;
        this.start = offset;
        this.pos = offset;
        this.end = offset + length;
        return this;
    }

    /** Bytes consumed so far, relative to the wrapped offset. */
    public int position() {
        return pos - start;
    }

    public boolean hasNext() {
        return pos < end;
    }

    /** True if the next field is null. Requires {@link #hasNext()}. */
    public boolean isNull() {
        return peekTag() == KeyFormat.TAG_NULL;
    }

    /** The type of the next field. Requires {@link #hasNext()} and not {@link #isNull()}. */
    public FieldType nextType() {
        byte tag = peekTag();
        if (tag == KeyFormat.TAG_NULL) {
            throw new IllegalStateException("next field is null; check isNull() before nextType()");
        }
        FieldType type = FieldType.ofTag(tag);
        if (type == null) {
            throw malformed(pos, String.format("unknown tag 0x%02x", tag & 0xFF));
        }
        return type;
    }

    /** Consumes a null field and returns {@code null} (so it can stand in an expression). */
    public <T> T readNull() {
        expect(KeyFormat.TAG_NULL, "NULL");
        pos++;
        return null;
    }

    public int readInt32() {
        expect(KeyFormat.TAG_INT32, "INT32");
        need(1 + KeyFormat.INT32_LENGTH);
        int v = getInt(pos + 1);
        pos += 1 + KeyFormat.INT32_LENGTH;
        return KeyFormat.decodeInt32Bits(v);
    }

    public long readInt64() {
        expect(KeyFormat.TAG_INT64, "INT64");
        need(1 + KeyFormat.INT64_LENGTH);
        long v = getLong(pos + 1);
        pos += 1 + KeyFormat.INT64_LENGTH;
        return KeyFormat.decodeInt64Bits(v);
    }

    public double readFloat64() {
        expect(KeyFormat.TAG_FLOAT64, "FLOAT64");
        need(1 + KeyFormat.INT64_LENGTH);
        long v = getLong(pos + 1);
        pos += 1 + KeyFormat.INT64_LENGTH;
        return KeyFormat.decodeFloat64Bits(v);
    }

    public String readString() {
        expect(KeyFormat.TAG_STRING, "STRING");
        return new String(readEscaped(), StandardCharsets.UTF_8);
    }

    public byte[] readBytes() {
        expect(KeyFormat.TAG_BYTES, "BYTES");
        return readEscaped();
    }

    /** Skips the next field, whatever its type. Requires {@link #hasNext()}. */
    public void skip() {
        if (isNull()) {
            pos++;
            return;
        }
        switch (nextType()) {
            case INT32: need(1 + KeyFormat.INT32_LENGTH); pos += 1 + KeyFormat.INT32_LENGTH; break;
            case INT64:
            case FLOAT64: need(1 + KeyFormat.INT64_LENGTH); pos += 1 + KeyFormat.INT64_LENGTH; break;
            default: pos = payloadEnd(pos + 1) + 2; break;
        }
    }

    /** Reads an escaped payload starting after the tag at {@code pos}; leaves pos after the terminator. */
    private byte[] readEscaped() {
        int from = pos + 1;
        int terminator = payloadEnd(from);
        int n = 0;
        for (int i = from; i < terminator; i++, n++) {
            if (buf[i] == KeyFormat.ESCAPE) {
                i++;
            }
        }
        byte[] out = new byte[n];
        int o = 0;
        for (int i = from; i < terminator; i++) {
            out[o++] = buf[i];
            if (buf[i] == KeyFormat.ESCAPE) {
                i++;
            }
        }
        pos = terminator + 2;
        return out;
    }

    /** Index of the terminator's first byte for an escaped payload starting at {@code from}. */
    private int payloadEnd(int from) {
        for (int i = from; i < end; i++) {
            if (buf[i] == KeyFormat.ESCAPE) {
                if (i + 1 >= end) {
                    break;
                }
                byte next = buf[i + 1];
                if (next == KeyFormat.TERMINATOR) {
                    return i;
                }
                if (next != KeyFormat.ESCAPED_ZERO) {
                    throw malformed(i + 1, String.format("0x00 followed by 0x%02x", next & 0xFF));
                }
                i++;
            }
        }
        throw malformed(from, "unterminated STRING/BYTES field");
    }

    private byte peekTag() {
        if (pos >= end) {
            throw new IllegalStateException("no more fields (key length " + (end - start) + ")");
        }
        return buf[pos];
    }

    private void expect(byte tag, String what) {
        byte actual = peekTag();
        if (actual != tag) {
            FieldType type = FieldType.ofTag(actual);
            String found = actual == KeyFormat.TAG_NULL ? "NULL"
                    : type != null ? type.name() : String.format("unknown tag 0x%02x", actual & 0xFF);
            throw new IllegalStateException("expected " + what + " at offset " + position() + ", found " + found);
        }
    }

    private void need(int bytes) {
        if (end - pos < bytes) {
            throw malformed(pos, "field truncated: needs " + bytes + " bytes, " + (end - pos) + " left");
        }
    }

    private int getInt(int i) {
        return (buf[i] & 0xFF) << 24 | (buf[i + 1] & 0xFF) << 16 | (buf[i + 2] & 0xFF) << 8 | (buf[i + 3] & 0xFF);
    }

    private long getLong(int i) {
        return (long) getInt(i) << 32 | (getInt(i + 4) & 0xFFFFFFFFL);
    }

    private IllegalArgumentException malformed(int at, String why) {
        return new IllegalArgumentException("malformed key at offset " + (at - start) + ": " + why);
    }
}
