package dev.breakwater.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The commit path's reused buffer produces exactly the bytes of a fresh encoding (the on-disk format is unchanged). */
class CommitScratchTest {

    private static List<TreeOp> randomOps(Random r, int n, int maxValue) {
        TreeOp[] ops = new TreeOp[n];
        for (int i = 0; i < n; i++) {
            byte[] key = new byte[1 + r.nextInt(20)];
            r.nextBytes(key);
            if (r.nextInt(4) == 0) {
                ops[i] = TreeOp.delete(r.nextInt(5), key);
            } else {
                byte[] value = new byte[r.nextInt(maxValue + 1)];
                r.nextBytes(value);
                ops[i] = TreeOp.put(r.nextInt(5), key, value);
            }
        }
        return Arrays.asList(ops);
    }

    private static byte[] bytes(ByteBuffer b) {
        assertEquals(0, b.position());
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    @Test
    void reusedBufferHoldsTheSameBytesAsAFreshArray() {
        Random r = new Random(42);
        ByteBuffer into = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int round = 0; round < 500; round++) {
            List<TreeOp> ops = randomOps(r, r.nextInt(6), 2000);
            byte[] junk = new byte[into.capacity()];
            r.nextBytes(junk);
            into.clear().put(junk); // stale bytes and position of an earlier commit
            ByteBuffer b = CommitRecordFormat.encode(ops, into);
            assertSame(into, b);
            assertArrayEquals(CommitRecordFormat.encode(ops), bytes(b));
            assertEquals(ops.size(), CommitRecordFormat.decode(b.duplicate()).size());
        }
    }

    @Test
    void tooSmallBufferIsNotUsed() {
        List<TreeOp> ops = List.of(TreeOp.put(1, new byte[] {1}, new byte[100]));
        ByteBuffer small = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = CommitRecordFormat.encode(ops, small);
        assertNotSame(small, b);
        assertEquals(CommitRecordFormat.payloadBytes(ops), b.capacity());
        assertArrayEquals(CommitRecordFormat.encode(ops), bytes(b));
    }

    @Test
    void scratchGrowsKeepsAtMostTheCapAndReleasesOps() {
        CommitScratch s = CommitScratch.get();
        assertSame(s, CommitScratch.get());
        s.ops.add(TreeOp.put(1, new byte[] {1}, new byte[10_000]));
        ByteBuffer first = s.encode();
        assertArrayEquals(CommitRecordFormat.encode(s.ops), bytes(first));
        s.release();
        assertEquals(0, s.ops.size());
        s.ops.add(TreeOp.put(1, new byte[] {2}, new byte[9_000]));
        assertSame(first, s.encode(), "a smaller commit reuses the grown buffer");
        s.release();
        s.ops.add(TreeOp.put(1, new byte[] {3}, new byte[CommitScratch.MAX_KEPT_BYTES]));
        ByteBuffer huge = s.encode();
        assertArrayEquals(CommitRecordFormat.encode(s.ops), bytes(huge));
        s.release();
        s.ops.add(TreeOp.put(1, new byte[] {4}, new byte[8]));
        assertNotSame(huge, s.encode(), "a commit over the cap does not keep its buffer");
        s.release();
    }
}
