package dev.breakwater.lsm.cursor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random sources, newest first, against a model that applies them oldest to newest; ascending, and
 * descending over the sources' descending maps against the model's descending map.
 */
class MergingCursorTest {

    @Test
    void newestVersionWinsAndTombstonesAreHiddenOrKept() throws IOException {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            int k = 1 + rnd.nextInt(6);
            List<TreeMap<byte[], byte[]>> maps = new ArrayList<>();
            for (int s = 0; s < k; s++) {
                TreeMap<byte[], byte[]> m = ListCursor.map();
                int n = rnd.nextInt(50);
                for (int i = 0; i < n; i++) {
                    byte[] key = {(byte) rnd.nextInt(256), (byte) rnd.nextInt(4)};
                    m.put(key, rnd.nextInt(5) == 0 ? null : new byte[] {(byte) s, (byte) i});
                }
                maps.add(m);
            }
            for (int variant = 0; variant < 4; variant++) {
                boolean hide = (variant & 1) == 0;
                boolean descending = variant >= 2;
                TreeMap<byte[], byte[]> model = ListCursor.map();
                for (int s = k - 1; s >= 0; s--) {
                    model.putAll(maps.get(s)); // newer sources (lower index) overwrite
                }
                if (hide) {
                    model.values().removeIf(v -> v == null);
                }
                List<ListCursor> sources = new ArrayList<>();
                for (int s = 0; s < k; s++) {
                    sources.add(new ListCursor(descending ? maps.get(s).descendingMap() : maps.get(s), s));
                }
                List<Map.Entry<byte[], byte[]>> expected = new ArrayList<>((descending ? model.descendingMap() : model).entrySet());
                int i = 0;
                try (MergingCursor c = new MergingCursor(sources, hide, descending)) {
                    while (c.next()) {
                        Map.Entry<byte[], byte[]> e = expected.get(i++);
                        assertArrayEquals(e.getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                        assertEquals(e.getValue() == null, c.isTombstone());
                        if (e.getValue() != null) {
                            assertArrayEquals(e.getValue(), Arrays.copyOf(c.value(), c.valueLength()));
                        }
                    }
                }
                assertEquals(expected.size(), i, "round " + round);
                assertTrue(sources.stream().allMatch(s -> s.closed), "close closes every source");

                // With a limit: exactly the model's entries before it, and no source read past its first entry beyond it.
                byte[] limit = {(byte) rnd.nextInt(256), (byte) rnd.nextInt(4)};
                List<Map.Entry<byte[], byte[]>> bounded = new ArrayList<>((descending
                        ? model.descendingMap().headMap(limit, true) : model.headMap(limit, false)).entrySet());
                long inRange = 0;
                List<ListCursor> limited = new ArrayList<>();
                for (int s = 0; s < k; s++) {
                    TreeMap<byte[], byte[]> m = maps.get(s);
                    inRange += (descending ? m.tailMap(limit, true) : m.headMap(limit, false)).size();
                    limited.add(new ListCursor(descending ? m.descendingMap() : m, s));
                }
                i = 0;
                try (MergingCursor c = new MergingCursor(limited, hide, descending, limit)) {
                    while (c.next()) {
                        assertArrayEquals(bounded.get(i++).getKey(), Arrays.copyOf(c.key(), c.keyLength()));
                    }
                    assertEquals(bounded.size(), i, "round " + round + " with a limit");
                    assertTrue(c.entriesRead() <= inRange + k,
                            "read " + c.entriesRead() + " source entries for " + inRange + " within the limit over " + k + " sources");
                }
            }
        }
    }
}
