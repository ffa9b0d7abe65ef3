package dev.breakwater.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Model-based: random puts, removes and conditional removes against a HashMap. */
class LongLongOpenHashMapTest {

    @Test
    void agreesWithHashMapUnderRandomOperations() {
        Random rnd = new Random(42);
        LongLongOpenHashMap map = new LongLongOpenHashMap(4, -1);
        Map<Long, Long> model = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            // A small key space forces long probe clusters, wrap-around and backward shifts.
            long key = rnd.nextInt(2000) - 1000L;
            long value = rnd.nextInt(1_000_000);
            switch (rnd.nextInt(4)) {
                case 0, 1 -> {
                    Long old = model.put(key, value);
                    assertEquals(old == null ? -1L : old, map.put(key, value), "put " + key);
                }
                case 2 -> {
                    Long old = model.remove(key);
                    assertEquals(old == null ? -1L : old, map.remove(key), "remove " + key);
                }
                default -> {
                    long expected = rnd.nextBoolean() ? value : model.getOrDefault(key, -2L);
                    boolean modelRemoves = model.containsKey(key) && model.get(key) == expected;
                    if (modelRemoves) {
                        model.remove(key);
                    }
                    assertEquals(modelRemoves, map.remove(key, expected), "conditional remove " + key);
                }
            }
            assertEquals(model.size(), map.size());
            long probe = rnd.nextInt(2000) - 1000L;
            assertEquals(model.getOrDefault(probe, -1L), map.get(probe), "get " + probe);
        }
        for (long k = -1000; k < 1000; k++) {
            assertEquals(model.getOrDefault(k, -1L), map.get(k), "key " + k);
        }
    }

    @Test
    void reservedKeyIsRejected() {
        LongLongOpenHashMap map = new LongLongOpenHashMap(4, -1);
        assertThrows(IllegalArgumentException.class, () -> map.put(LongLongOpenHashMap.EMPTY_KEY, 1));
    }
}
