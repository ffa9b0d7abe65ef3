package dev.breakwater.txn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes a dataset's records (the values stored in its primary tree) and checks them against the
 * schema. Layout, little endian:
 *
 * <pre>
 *  u16 field count | null bitmap (ceil(n/8) bytes, bit i set = field i is null)
 *  then for each non-null field in order:
 *    INT32: i32 | INT64: i64 | FLOAT64: f64 bits | STRING: u32 length + UTF-8 | BYTES: u32 length + bytes
 * </pre>
 *
 * <p>Thread safety: immutable; safe.
 */
final class RecordCodec {

    private final DatasetSpec spec;
    private final List<Field> fields;

    RecordCodec(DatasetSpec spec) {
        this.spec = spec;
        this.fields = spec.fields();
    }

    /**
     * Checks a tuple against the schema.
     *
     * @throws SchemaException naming the dataset, field, expected type and actual value type
     */
    void validate(Tuple t) {
        if (t.size() != fields.size()) {
            throw new SchemaException("dataset " + spec.name() + " has " + fields.size() + " fields, the tuple has " + t.size());
        }
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            Object v = t.raw(i);
            if (!f.accepts(v)) {
                throw new SchemaException("dataset " + spec.name() + ", field " + f.name() + ": expected "
                        + (v == null ? "a non-null " + f.type() : f.type() + " (" + f.javaType().getSimpleName() + ")")
                        + ", got " + (v == null ? "null" : v.getClass().getSimpleName() + " " + v));
            }
        }
    }

    /**
     * {@code encode(t).length}, without encoding: what the write path checks against the record size
     * limit before it encodes the record once (no array, no UTF-8 copy per string).
     */
    int encodedSize(Tuple t) {
        int n = fields.size();
        int size = 2 + (n + 7) / 8;
        for (int i = 0; i < n; i++) {
            Object v = t.raw(i);
            if (v == null) {
                continue;
            }
            switch (fields.get(i).type()) {
                case INT32 -> size += 4;
                case INT64, FLOAT64 -> size += 8;
                case STRING -> size += 4 + utf8Length((String) v);
                case BYTES -> size += 4 + ((byte[]) v).length;
            }
        }
        return size;
    }

    /**
     * Bytes {@code s.getBytes(UTF_8)} makes: 1, 2 or 3 per char, 4 per surrogate pair, and 1 for an
     * unpaired surrogate (which the encoder replaces with '?').
     */
    static int utf8Length(String s) {
        int len = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                len += 1;
            } else if (c < 0x800) {
                len += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                len += 1;
            } else {
                len += 3;
            }
        }
        return len;
    }

    byte[] encode(Tuple t) {
        int n = fields.size();
        int bitmap = (n + 7) / 8;
        ByteBuffer b = ByteBuffer.allocate(encodedSize(t)).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) n);
        byte[] nulls = new byte[bitmap];
        for (int i = 0; i < n; i++) {
            if (t.raw(i) == null) {
                nulls[i >> 3] |= (byte) (1 << (i & 7));
            }
        }
        b.put(nulls);
        for (int i = 0; i < n; i++) {
            Object v = t.raw(i);
            if (v == null) {
                continue;
            }
            switch (fields.get(i).type()) {
                case INT32 -> b.putInt((Integer) v);
                case INT64 -> b.putLong((Long) v);
                case FLOAT64 -> b.putLong(Double.doubleToRawLongBits((Double) v));
                case STRING -> {
                    byte[] utf8 = ((String) v).getBytes(StandardCharsets.UTF_8);
                    b.putInt(utf8.length).put(utf8);
                }
                case BYTES -> b.putInt(((byte[]) v).length).put((byte[]) v);
            }
        }
        if (b.hasRemaining()) { // encodedSize and this loop must agree byte for byte (RecordCodecTest)
            throw new IllegalStateException("record of dataset " + spec.name() + " encoded to " + b.position()
                    + " bytes, sized at " + b.capacity());
        }
        return b.array();
    }

    Tuple decode(byte[] bytes, int length) {
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        int n = b.getShort() & 0xFFFF;
        if (n != fields.size()) {
            throw new StorageException("dataset " + spec.name() + ": stored record has " + n + " fields, schema has " + fields.size());
        }
        byte[] nulls = new byte[(n + 7) / 8];
        b.get(nulls);
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            if ((nulls[i >> 3] & (1 << (i & 7))) != 0) {
                continue;
            }
            values[i] = switch (fields.get(i).type()) {
                case INT32 -> b.getInt();
                case INT64 -> b.getLong();
                case FLOAT64 -> Double.longBitsToDouble(b.getLong());
                case STRING -> {
                    byte[] s = new byte[b.getInt()];
                    b.get(s);
                    yield new String(s, StandardCharsets.UTF_8);
                }
                case BYTES -> {
                    byte[] s = new byte[b.getInt()];
                    b.get(s);
                    yield s;
                }
            };
        }
        return Tuple.wrap(values);
    }
}
