package dev.breakwater.lsm.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.lsm.manager.WriteMemoryManager;
import dev.breakwater.lsm.manager.WriteMemoryOptions;
import dev.breakwater.lsm.memory.MemoryComponentSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A partitioned tree's seal copies M0 and the M1 tables it overlaps before it frees them, so it needs
 * pool room. When the pool lacks it, the flush policy decides which tree frees memory, as it does for
 * a writer facing an empty pool: here the tree that holds far more memory than its share of the
 * writes. Before (until session 11), the seal built until the pool ran dry and then flushed its own
 * last memory level, the newest data of the tree written most: Figure 10's hot trees flushed all
 * their memory-triggered bytes that way and the optimal policy never chose them
 * (docs/benchmarks-memory.md, "Session 11").
 */
class SealRoomTest {

    private static final int VALUE = 1000;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static boolean sealed(LsmTree t) {
        synchronized (t.stateLock) {
            return !t.immutables.isEmpty();
        }
    }

    @Test
    void aSealWithoutRoomLetsTheFlushPolicyChooseWhoFreesIt() throws Exception {
        // The cold tree's flush must free the room within the seal's wait even on a loaded machine.
        long wait = Flusher.roomWaitNanos;
        Flusher.roomWaitNanos = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        try {
            sealWithoutRoom();
        } finally {
            Flusher.roomWaitNanos = wait;
        }
    }

    private void sealWithoutRoom() throws Exception {
        AtomicLong logPosition = new AtomicLong();
        LsmTreeOptions base = TreeFixture.smallTreeOptions(LsmTreeOptions.Policy.LEVELING);
        LsmTreeOptions hotOptions = base.withMemoryTableBytes(1L << 20).withMemoryLevels(1);
        LsmTreeOptions coldOptions = base.withMemoryTableBytes(64L << 20).withMemoryLevels(1); // never seals by size here
        try (TreeFixture fx = new TreeFixture(new MemFileSystem(), Path.of("/db"), hotOptions, 8L << 20)) {
            WriteMemoryManager m = new WriteMemoryManager(fx.pool, new WriteMemoryOptions(WriteMemoryScheme.DYNAMIC,
                    FlushPolicyKind.OPTIMAL, 0.9, 8, 64L << 20, 64 * 1024), logPosition::get);
            try (LsmTree hot = LsmTree.open("hot", fx.dir.resolve("hot"), hotOptions, fx.resources, true, MemoryComponentSpec.SKIP_LIST);
                 LsmTree cold = LsmTree.open("cold", fx.dir.resolve("cold"), coldOptions, fx.resources, true, MemoryComponentSpec.SKIP_LIST)) {
                m.register(hot, "hot");
                m.register(cold, "cold");
                byte[] value = new byte[VALUE];
                long lsn = 0;
                // The cold tree: few writes, much memory (4.5 MiB of the 8 MiB pool in its M0).
                for (int i = 0; i < 4600; i++) {
                    cold.put(key(i), value, ++lsn);
                }
                // The window of write rates starts here, after the cold tree's load.
                logPosition.set(lsn * (VALUE + 20));
                m.tick();
                // The hot tree: even keys fill M0, which seals into M1 (about 1 MiB there); the cold
                // tree takes a few writes meanwhile. The writer stops once M0 is sealed: on a slow
                // machine one that went on until the seal finished filled a second and third M0
                // (hot keys 1,900-4,900 instead of about 950) and left the pool at its threshold.
                int hotKeys = 0;
                while (hot.statistics().memorySeals() == 0 && !sealed(hot)) {
                    hot.put(key(2 * hotKeys++), value, ++lsn);
                    if (hotKeys % 100 == 0) {
                        cold.put(key(hotKeys), value, ++lsn);
                    }
                    logPosition.set(lsn * (VALUE + 20));
                    m.tick();
                }
                hot.flusher.awaitIdle();
                long seals = hot.statistics().memorySeals();
                long used = fx.pool.usedBytes();
                assertTrue(used < 0.9 * fx.pool.capacityBytes(), "below the flush threshold before the seal: " + used);
                // Odd keys: the next M0 overlaps all of M1, so its seal copies M0 and M1 (about 2 MiB),
                // more than the pool has free. The writer stops once M0 is sealed, so that only the
                // seal and the flushes it asks for use the pool from then on.
                for (int i = 0; hot.statistics().memorySeals() == seals && !sealed(hot); i++) {
                    hot.put(key(2 * (i % hotKeys) + 1), value, ++lsn);
                    logPosition.set(lsn * (VALUE + 20));
                }
                hot.flusher.awaitIdle();
                cold.flusher.awaitIdle();

                TreeStatisticsSnapshot h = hot.statistics();
                TreeStatisticsSnapshot c = cold.statistics();
                assertTrue(h.memorySeals() > seals, "the seal went through");
                assertEquals(0, h.bytesFlushed(), "the hot tree flushed nothing of its own for the seal's room; hot " + h.shape() + " seals=" + h.memorySeals() + " hotKeys=" + hotKeys + " used=" + used);
                assertEquals(0, h.shape().sealsWithoutRoom(), "no seal ran the pool dry");
                assertTrue(h.shape().sealRoomWaits() >= 1, "the seal asked for room");
                assertTrue(c.bytesFlushed() > 0, "the policy had the cold tree free the room");
            }
        }
    }
}
