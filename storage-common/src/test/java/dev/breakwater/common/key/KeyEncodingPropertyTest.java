package dev.breakwater.common.key;

import static dev.breakwater.common.key.TypedValues.compareKeys;
import static dev.breakwater.common.key.TypedValues.decode;
import static dev.breakwater.common.key.TypedValues.encode;
import static dev.breakwater.common.key.TypedValues.sameKey;
import static dev.breakwater.common.key.TypedValues.show;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Seeded property tests of the key encoding: decode(encode(v)) == v, and the order of encoded bytes
 * equals the typed order of the values, for single fields of each type and for composites.
 * Set {@code -Dbreakwater.seed=N} to reproduce or vary a run; the seed is in every failure message.
 */
class KeyEncodingPropertyTest {

    private static final long SEED = Long.getLong("breakwater.seed", 0x5EED_B0A7L);
    private static final int VALUES = 5_000;
    private static final int PAIRS = 20_000;

    private final Random random = new Random(SEED);
    private final TypedValues gen = new TypedValues(random);
    private final KeyEncoder reused = new KeyEncoder(1);

    @ParameterizedTest
    @EnumSource(FieldType.class)
    void singleFieldRoundTrips(FieldType type) {
        for (int i = 0; i < VALUES; i++) {
            checkRoundTrip(listOf(gen.value(type, 0.05)));
        }
    }

    @ParameterizedTest
    @EnumSource(FieldType.class)
    void singleFieldOrderMatchesTypedOrder(FieldType type) {
        for (int i = 0; i < PAIRS; i++) {
            Object a = gen.value(type, 0.05);
            Object b = random.nextBoolean() ? gen.near(type, a) : gen.value(type, 0.05);
            checkOrder(listOf(a), listOf(b));
        }
    }

    @ParameterizedTest
    @EnumSource(FieldType.class)
    void sortingByBytesSortsByType(FieldType type) {
        List<List<Object>> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            Object v = gen.value(type, 0.02);
            keys.add(listOf(v));
            keys.add(listOf(gen.near(type, v)));
        }
        keys.sort(TypedValues::compareKeys);
        for (int i = 1; i < keys.size(); i++) {
            checkOrder(keys.get(i - 1), keys.get(i));   // neighbours in typed order: the closest calls
        }
    }

    @Test
    void compositesRoundTrip() {
        for (int i = 0; i < VALUES; i++) {
            checkRoundTrip(gen.composite(gen.randomSchema()));
        }
    }

    @Test
    void compositeOrderIsFieldByFieldOrder() {
        for (int i = 0; i < PAIRS; i++) {
            FieldType[] schema = gen.randomSchema();
            List<Object> a = gen.composite(schema);
            List<Object> b = new ArrayList<>(a);
            // share a random number of leading fields, perturb the next one, re-draw the rest
            int shared = random.nextInt(schema.length + 1);
            for (int f = shared; f < schema.length; f++) {
                b.set(f, f == shared ? gen.near(schema[f], a.get(f)) : gen.value(schema[f], 0.15));
            }
            if (random.nextInt(8) == 0) {           // one key a field-prefix of the other
                b = b.subList(0, random.nextInt(b.size() + 1));
            }
            if (random.nextInt(16) == 0) {          // different schemas: order by tag
                b = gen.composite(gen.randomSchema());
            }
            checkOrder(a, b);
        }
    }

    @Test
    void stringPrefixOfAnotherSortsFirstInsideComposites() {
        // ("ab", MIN) < ("abc", MAX) although the second field alone would say otherwise
        for (int i = 0; i < PAIRS; i++) {
            String s = (String) gen.value(FieldType.STRING, 0);
            String longer = s + gen.value(FieldType.STRING, 0) + (random.nextBoolean() ? "\0" : "x");
            List<Object> a = listOf(s, Integer.MAX_VALUE);
            List<Object> b = listOf(longer, Integer.MIN_VALUE);
            assertTrue(compareKeys(a, b) < 0, "oracle");
            checkOrder(a, b);
        }
    }

    private void checkRoundTrip(List<Object> key) {
        byte[] bytes = encode(reused, key);
        List<Object> back = decode(bytes);
        if (!sameKey(key, back)) {
            fail("round trip failed (seed " + SEED + "): " + show(key) + " decoded as " + show(back));
        }
        assertEquals(0, KeyComparator.compare(bytes, encode(key)), "fresh and reused encoder differ");
    }

    private void checkOrder(List<Object> a, List<Object> b) {
        int typed = Integer.signum(compareKeys(a, b));
        byte[] ea = encode(a);
        byte[] eb = encode(reused, b);
        int bytes = Integer.signum(KeyComparator.compare(ea, eb));
        if (typed != bytes) {
            fail("order mismatch (seed " + SEED + "): typed " + typed + ", bytes " + bytes + " for "
                    + show(a) + " vs " + show(b));
        }
        assertEquals(-bytes, Integer.signum(KeyComparator.compare(eb, 0, eb.length, ea, 0, ea.length)));
    }

    private static List<Object> listOf(Object... values) {
        List<Object> l = new ArrayList<>();
        Collections.addAll(l, values);
        return l;
    }
}
