package dev.breakwater.txn;

import dev.breakwater.common.key.KeyDecoder;
import dev.breakwater.common.key.KeyEncoder;
import dev.breakwater.common.key.KeyRanges;
import java.util.List;

/**
 * Turns tuples and {@link Key}s into the order-preserving byte keys of one index (primary, or a
 * secondary whose entries are the indexed fields followed by the primary key), and byte keys back
 * into values. Also turns a {@link KeyRange} into a byte range {@code [from, to)}.
 *
 * <p>Thread safety: immutable; each call uses its own encoder.
 */
final class KeyCodec {

    private final String dataset;
    private final String index;
    private final List<Field> keyFields;
    private final int[] tuplePositions;

    /**
     * @param keyFields the fields this index's keys consist of, in order (for a secondary index:
     *                  indexed fields then primary key fields)
     */
    KeyCodec(DatasetSpec spec, String index, List<String> keyFields) {
        this.dataset = spec.name();
        this.index = index;
        this.keyFields = keyFields.stream().map(f -> spec.fields().get(spec.fieldIndex(f))).toList();
        this.tuplePositions = keyFields.stream().mapToInt(spec::fieldIndex).toArray();
    }

    int fieldCount() {
        return keyFields.size();
    }

    /** The index key of a (validated) record. */
    byte[] keyOf(Tuple t) {
        KeyEncoder e = new KeyEncoder();
        for (int i = 0; i < tuplePositions.length; i++) {
            write(e, keyFields.get(i), t.raw(tuplePositions[i]));
        }
        return e.toByteArray();
    }

    /**
     * Encodes a full key or a prefix of it.
     *
     * @throws SchemaException if it has too many values or a value of the wrong type
     */
    byte[] encode(Key k) {
        if (k.size() > keyFields.size()) {
            throw new SchemaException("index " + index + " of dataset " + dataset + " has " + keyFields.size()
                    + " key fields, the key has " + k.size() + " values");
        }
        KeyEncoder e = new KeyEncoder();
        for (int i = 0; i < k.size(); i++) {
            Field f = keyFields.get(i);
            Object v = k.raw(i);
            if (v == null ? !f.nullable() : !new Field(f.name(), f.type(), true).accepts(v)) {
                throw new SchemaException("index " + index + " of dataset " + dataset + ", key field " + f.name()
                        + ": expected " + f.type() + ", got " + (v == null ? "null" : v.getClass().getSimpleName() + " " + v));
            }
            write(e, f, v);
        }
        return e.toByteArray();
    }

    /** Encodes {@code k} with its last value, a string or byte array, written as a prefix of the field. */
    byte[] encodePrefix(Key k) {
        Object last = k.raw(k.size() - 1);
        Object[] head = new Object[k.size() - 1];
        for (int i = 0; i < head.length; i++) {
            head[i] = k.raw(i);
        }
        byte[] encodedHead = encode(Key.of(head));
        KeyEncoder e = new KeyEncoder();
        Field f = keyFields.get(k.size() - 1);
        if (last instanceof String str && f.type() == dev.breakwater.common.key.FieldType.STRING) {
            e.writeStringPrefix(str);
        } else if (last instanceof byte[] b && f.type() == dev.breakwater.common.key.FieldType.BYTES) {
            e.writeBytesPrefix(b);
        } else {
            throw new SchemaException("index " + index + " of dataset " + dataset + ", key field " + f.name()
                    + ": expected " + f.type() + ", got " + last.getClass().getSimpleName() + " " + last);
        }
        byte[] tail = e.toByteArray();
        byte[] all = java.util.Arrays.copyOf(encodedHead, encodedHead.length + tail.length);
        System.arraycopy(tail, 0, all, encodedHead.length, tail.length);
        return all;
    }

    /** A full key's encoding; the key must have every field. */
    byte[] encodeFull(Key k) {
        if (k.size() != keyFields.size()) {
            throw new SchemaException("index " + index + " of dataset " + dataset + " needs " + keyFields.size()
                    + " key values, got " + k.size());
        }
        return encode(k);
    }

    /** The smallest key in range, inclusive; null for unbounded. */
    byte[] from(KeyRange r) {
        if (r.low() == null) {
            return null;
        }
        if (r.lastValueIsPrefix()) {
            return encodePrefix(r.low());
        }
        byte[] low = encode(r.low());
        return r.lowInclusive() ? low : KeyRanges.prefixEnd(low);
    }

    /** The first key past the range, exclusive; null for unbounded. */
    byte[] to(KeyRange r) {
        if (r.high() == null) {
            return null;
        }
        if (r.lastValueIsPrefix()) {
            return KeyRanges.prefixEnd(encodePrefix(r.high()));
        }
        byte[] high = encode(r.high());
        return r.highInclusive() ? KeyRanges.prefixEnd(high) : high;
    }

    /** Decodes the values of the first {@code count} fields of an encoded key. */
    Object[] decode(byte[] key, int length, int count) {
        KeyDecoder d = new KeyDecoder().wrap(key, 0, length);
        Object[] out = new Object[count];
        for (int i = 0; i < count; i++) {
            if (d.isNull()) {
                d.readNull();
                continue;
            }
            out[i] = switch (keyFields.get(i).type()) {
                case INT32 -> d.readInt32();
                case INT64 -> d.readInt64();
                case FLOAT64 -> d.readFloat64();
                case STRING -> d.readString();
                case BYTES -> d.readBytes();
            };
        }
        return out;
    }

    /** Byte length of the first {@code count} fields of an encoded key. */
    int prefixLength(byte[] key, int length, int count) {
        KeyDecoder d = new KeyDecoder().wrap(key, 0, length);
        for (int i = 0; i < count; i++) {
            d.skip();
        }
        return d.position();
    }

    private static void write(KeyEncoder e, Field f, Object v) {
        if (v == null) {
            e.writeNull();
            return;
        }
        switch (f.type()) {
            case INT32 -> e.writeInt32((Integer) v);
            case INT64 -> e.writeInt64((Long) v);
            case FLOAT64 -> e.writeFloat64((Double) v);
            case STRING -> e.writeString((String) v);
            case BYTES -> e.writeBytes((byte[]) v);
        }
    }
}
