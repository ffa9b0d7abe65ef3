package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.lsm.EntryCursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionMergeCursor} against a sorted model: random disjoint key sets spread over 1 to 9
 * sources (some empty), each source reusing one oversized key array as real cursors do, so only
 * {@code keyLength} bytes count. The merge must give every key once, in unsigned order (descending,
 * over sources in descending order, every other round), with its own source's value, then stay
 * exhausted; close closes every source once.
 */
class PartitionMergeCursorTest {

    @Test
    void mergesDisjointSourcesInUnsignedKeyOrder() throws Exception {
        Random rnd = new Random(7);
        for (int round = 0; round < 300; round++) {
            boolean descending = (round & 1) == 1;
            int sources = 1 + rnd.nextInt(9);
            TreeSet<byte[]> all = new TreeSet<>(Arrays::compareUnsigned);
            for (int i = rnd.nextInt(200); i > 0; i--) {
                byte[] k = new byte[1 + rnd.nextInt(4)];
                rnd.nextBytes(k);
                all.add(k);
            }
            List<List<byte[]>> parts = new ArrayList<>();
            for (int s = 0; s < sources; s++) {
                parts.add(new ArrayList<>());
            }
            for (byte[] k : descending ? all.descendingSet() : all) {
                parts.get(rnd.nextInt(sources)).add(k); // each source sorted, sources disjoint
            }
            Source[] cursors = new Source[sources];
            for (int s = 0; s < sources; s++) {
                cursors[s] = new Source(parts.get(s), s);
            }
            PartitionMergeCursor merged = new PartitionMergeCursor(cursors, descending);
            for (byte[] want : descending ? all.descendingSet() : all) {
                assertTrue(merged.next(), "round " + round);
                assertArrayEquals(want, Arrays.copyOf(merged.key(), merged.keyLength()), "round " + round);
                int source = merged.value()[0];
                assertTrue(parts.get(source).contains(want), "the value comes from the key's own source");
            }
            assertFalse(merged.next());
            assertFalse(merged.next());
            merged.close();
            merged.close();
            for (Source c : cursors) {
                assertEquals(1, c.closes);
            }
        }
    }

    /** A cursor over sorted keys that copies each into one reused 16-byte array; the value names the source. */
    private static final class Source implements EntryCursor {
        private final List<byte[]> keys;
        private final byte[] key = new byte[16];
        private final byte[] value;
        private int pos = -1;
        private int length;
        int closes;

        Source(List<byte[]> keys, int id) {
            this.keys = keys;
            this.value = new byte[] {(byte) id};
        }

        @Override
        public boolean next() {
            if (pos + 1 >= keys.size()) {
                pos = keys.size();
                return false;
            }
            byte[] k = keys.get(++pos);
            Arrays.fill(key, (byte) 0x5a); // stale bytes past keyLength must not matter
            System.arraycopy(k, 0, key, 0, k.length);
            length = k.length;
            return true;
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public int keyLength() {
            return length;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public int valueLength() {
            return 1;
        }

        @Override
        public boolean isTombstone() {
            return false;
        }

        @Override
        public long lsn() {
            return 0;
        }

        @Override
        public void close() {
            closes++;
        }
    }
}
