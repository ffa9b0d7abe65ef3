package dev.breakwater.common.key;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Test model of typed key values: random generation (with edge cases), encoding through
 * {@link KeyEncoder}, decoding through {@link KeyDecoder}, and a typed comparison written
 * independently of the byte encoding, used as the oracle.
 *
 * <p>Values are Java objects: Integer (INT32), Long (INT64), Double (FLOAT64), String, byte[]
 * (BYTES), or null. A key is a {@code List<Object>}.
 */
final class TypedValues {

    private static final int[] INT_EDGES = {Integer.MIN_VALUE, Integer.MIN_VALUE + 1, -1, 0, 1, Integer.MAX_VALUE - 1, Integer.MAX_VALUE};
    private static final long[] LONG_EDGES = {Long.MIN_VALUE, Long.MIN_VALUE + 1, -1, 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE,
            Integer.MIN_VALUE, Integer.MAX_VALUE};
    private static final double[] DOUBLE_EDGES = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_NORMAL,
            -Double.MIN_VALUE, -0.0, 0.0, Double.MIN_VALUE, Double.MIN_NORMAL, 1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY,
            Double.NaN, Double.longBitsToDouble(0xfff8000000000001L) /* a negative NaN */};
    private static final String[] STRING_EDGES = {"", "\0", "\0\0", "a", "a\0", "a\0b", "ab", "\u007f", "\u0080", "\u07ff",
            "\u0800", "\uffff", "\ud800\udc00", "\udbff\udfff", "\ue000", "zz\u00e9\ud83d\ude00"};

    private final Random random;

    TypedValues(Random random) {
        this.random = random;
    }

    FieldType randomType() {
        FieldType[] all = FieldType.values();
        return all[random.nextInt(all.length)];
    }

    /** A random value of {@code type}, null with probability {@code nullChance}. */
    Object value(FieldType type, double nullChance) {
        if (random.nextDouble() < nullChance) {
            return null;
        }
        boolean edge = random.nextInt(5) == 0;
        switch (type) {
            case INT32:
                return edge ? INT_EDGES[random.nextInt(INT_EDGES.length)]
                        : random.nextBoolean() ? random.nextInt() : random.nextInt(21) - 10;
            case INT64:
                return edge ? LONG_EDGES[random.nextInt(LONG_EDGES.length)]
                        : random.nextBoolean() ? random.nextLong() : (long) random.nextInt(21) - 10;
            case FLOAT64:
                if (edge) {
                    return DOUBLE_EDGES[random.nextInt(DOUBLE_EDGES.length)];
                }
                switch (random.nextInt(3)) {
                    case 0: return Double.longBitsToDouble(random.nextLong()); // any bit pattern, incl. NaNs and subnormals
                    case 1: return (random.nextDouble() - 0.5) * 1e6;
                    default: return (double) (random.nextInt(21) - 10);
                }
            case STRING:
                return edge ? STRING_EDGES[random.nextInt(STRING_EDGES.length)] : randomString();
            case BYTES:
                if (edge) {
                    return utf8(STRING_EDGES[random.nextInt(STRING_EDGES.length)]);
                }
                byte[] b = new byte[random.nextInt(8)];
                for (int i = 0; i < b.length; i++) {
                    int r = random.nextInt(4);
                    b[i] = r == 0 ? 0 : r == 1 ? (byte) 0xFF : r == 2 ? 1 : (byte) random.nextInt(256);
                }
                return b;
            default:
                throw new AssertionError(type);
        }
    }

    /** A value close to {@code v} in typed order (neighbour, extension, truncation), or a fresh one. */
    Object near(FieldType type, Object v) {
        if (v == null || random.nextInt(4) == 0) {
            return value(type, 0.2);
        }
        switch (type) {
            case INT32: return (Integer) v + random.nextInt(3) - 1;
            case INT64: return (Long) v + random.nextInt(3) - 1;
            case FLOAT64: {
                double d = (Double) v;
                int r = random.nextInt(4);
                return r == 0 ? Math.nextUp(d) : r == 1 ? Math.nextDown(d) : r == 2 ? -d : d;
            }
            case STRING: {
                String s = (String) v;
                int r = random.nextInt(3);
                if (r == 0) {
                    return s + randomString();
                }
                int cut = random.nextInt(s.length() + 1);
                if (cut > 0 && Character.isHighSurrogate(s.charAt(cut - 1))) {
                    cut--;
                }
                return r == 1 ? s.substring(0, cut) : s.substring(0, cut) + "\0";
            }
            case BYTES: {
                byte[] b = (byte[]) v;
                byte[] c = Arrays.copyOf(b, random.nextInt(b.length + 3));
                return c;
            }
            default:
                throw new AssertionError(type);
        }
    }

    private String randomString() {
        int n = random.nextInt(6);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            switch (random.nextInt(6)) {
                case 0: sb.append('\0'); break;
                case 1: sb.append((char) ('a' + random.nextInt(3))); break;
                case 2: sb.append((char) (0x80 + random.nextInt(0x780))); break;
                case 3: sb.appendCodePoint(0x10000 + random.nextInt(0x100000)); break;
                case 4: sb.append((char) (0xE000 + random.nextInt(0x2000))); break;
                default: sb.append((char) random.nextInt(0xD800)); break;
            }
        }
        return sb.toString();
    }

    /** A random composite of 1..4 fields of {@code types.length} types, with some nulls. */
    List<Object> composite(FieldType[] types) {
        List<Object> key = new ArrayList<>();
        for (FieldType t : types) {
            key.add(value(t, 0.15));
        }
        return key;
    }

    FieldType[] randomSchema() {
        FieldType[] types = new FieldType[1 + random.nextInt(4)];
        for (int i = 0; i < types.length; i++) {
            types[i] = randomType();
        }
        return types;
    }

    static byte[] encode(List<?> key) {
        return encode(new KeyEncoder(1), key);
    }

    static byte[] encode(KeyEncoder enc, List<?> key) {
        enc.reset();
        for (Object v : key) {
            if (v == null) {
                enc.writeNull();
            } else if (v instanceof Integer) {
                enc.writeInt32((Integer) v);
            } else if (v instanceof Long) {
                enc.writeInt64((Long) v);
            } else if (v instanceof Double) {
                enc.writeFloat64((Double) v);
            } else if (v instanceof String) {
                enc.writeString((String) v);
            } else {
                enc.writeBytes((byte[]) v);
            }
        }
        return enc.toByteArray();
    }

    /** Decodes every field of {@code key}, discovering types from the tags. */
    static List<Object> decode(byte[] key) {
        KeyDecoder dec = new KeyDecoder().wrap(key);
        List<Object> out = new ArrayList<>();
        while (dec.hasNext()) {
            if (dec.isNull()) {
                out.add(dec.readNull());
                continue;
            }
            switch (dec.nextType()) {
                case INT32: out.add(dec.readInt32()); break;
                case INT64: out.add(dec.readInt64()); break;
                case FLOAT64: out.add(dec.readFloat64()); break;
                case STRING: out.add(dec.readString()); break;
                case BYTES: out.add(dec.readBytes()); break;
                default: throw new AssertionError();
            }
        }
        return out;
    }

    static boolean sameKey(List<?> a, List<?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (compareField(a.get(i), b.get(i)) != 0 || typeRank(a.get(i)) != typeRank(b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** Typed order of composite keys: field by field, a key that is a field-prefix of another first. */
    static int compareKeys(List<?> a, List<?> b) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            int c = compareField(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** Typed order of one field: null first, then by type (declaration order), then by value. */
    static int compareField(Object a, Object b) {
        int ra = typeRank(a);
        int rb = typeRank(b);
        if (ra != rb) {
            return Integer.compare(ra, rb);
        }
        if (a == null) {
            return 0;
        }
        if (a instanceof Integer) {
            return Integer.compare((Integer) a, (Integer) b);
        }
        if (a instanceof Long) {
            return Long.compare((Long) a, (Long) b);
        }
        if (a instanceof Double) {
            return Double.compare((Double) a, (Double) b);
        }
        if (a instanceof String) {
            return compareCodePoints((String) a, (String) b);
        }
        byte[] x = (byte[]) a;
        byte[] y = (byte[]) b;
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] != y[i]) {
                return Integer.compare(x[i] & 0xFF, y[i] & 0xFF);
            }
        }
        return Integer.compare(x.length, y.length);
    }

    private static int compareCodePoints(String a, String b) {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] != y[i]) {
                return Integer.compare(x[i], y[i]);
            }
        }
        return Integer.compare(x.length, y.length);
    }

    private static int typeRank(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Integer) {
            return 1;
        }
        if (v instanceof Long) {
            return 2;
        }
        if (v instanceof Double) {
            return 3;
        }
        if (v instanceof String) {
            return 4;
        }
        return 5;
    }

    static String show(List<?> key) {
        StringBuilder sb = new StringBuilder("(");
        for (Object v : key) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            if (v instanceof byte[]) {
                sb.append("bytes").append(Arrays.toString((byte[]) v));
            } else if (v instanceof String) {
                sb.append('"').append(((String) v).codePoints()
                        .mapToObj(cp -> cp >= 0x20 && cp < 0x7f ? String.valueOf((char) cp) : String.format("\\u{%x}", cp))
                        .reduce("", String::concat)).append('"');
            } else if (v instanceof Double) {
                sb.append(v).append(String.format("[0x%016x]", Double.doubleToRawLongBits((Double) v)));
            } else {
                sb.append(v);
            }
        }
        return sb.append(')').toString();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
