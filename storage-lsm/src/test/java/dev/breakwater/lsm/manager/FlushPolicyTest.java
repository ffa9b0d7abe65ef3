package dev.breakwater.lsm.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which tree each flush policy picks, and the STATIC scheme's dataset activation. */
class FlushPolicyTest {

    private final WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(1 << 20).withPageSize(64 * 1024));
    private final AtomicLong log = new AtomicLong();

    @AfterEach
    void close() {
        pool.close();
    }

    private WriteMemoryManager manager(WriteMemoryScheme scheme, FlushPolicyKind policy, int d) {
        return new WriteMemoryManager(pool, new WriteMemoryOptions(scheme, policy, 0.95, d, 1000, 1), log::get);
    }

    private static FakeTree tree(String name, long memory, long oldestLsn) {
        FakeTree t = new FakeTree(name);
        t.memory = memory;
        t.oldestLsn = oldestLsn;
        return t;
    }

    @Test
    void maxMemoryAndMinLsnPickTheirTrees() {
        FakeTree a = tree("a", 100, 50);
        FakeTree b = tree("b", 300, 70);
        FakeTree c = tree("c", 200, 10);
        WriteMemoryManager max = manager(WriteMemoryScheme.DYNAMIC, FlushPolicyKind.MAX_MEMORY, 8);
        WriteMemoryManager min = manager(WriteMemoryScheme.DYNAMIC, FlushPolicyKind.MIN_LSN, 8);
        for (FakeTree t : List.of(a, b, c)) {
            max.register(t, t.name);
            min.register(t, t.name);
        }
        assertSame(b, max.pick());
        assertSame(c, min.pick());
    }

    @Test
    void optimalPicksTheTreeWhoseMemoryShareMostExceedsItsWriteShare() {
        FakeTree hot = tree("hot", 400, 1);
        FakeTree cold = tree("cold", 300, 2);
        FakeTree idle = tree("idle", 300, 3);
        WriteMemoryManager m = manager(WriteMemoryScheme.DYNAMIC, FlushPolicyKind.OPTIMAL, 8);
        for (FakeTree t : List.of(hot, cold, idle)) {
            m.register(t, t.name);
        }
        m.tick(); // first sample at log position 0
        hot.entries = 800;
        cold.entries = 200;
        log.set(500);
        m.tick();
        // Shares of memory 0.4 / 0.3 / 0.3, of writes 0.8 / 0.2 / 0: idle exceeds most (0.3).
        assertSame(idle, m.pick());
        WriteMemorySnapshot s = m.snapshot();
        assertEquals(0.8, s.trees().get("hot").writeShare(), 1e-9);
        assertEquals(0.4, s.trees().get("hot").memoryShare(), 1e-9);
    }

    @Test
    void optimalPolicyLeavesATreeItsSmallestUsefulFlush() {
        FakeTree hot = tree("hot", 600, 1);
        FakeTree cold = tree("cold", 400, 2);
        WriteMemoryManager m = manager(WriteMemoryScheme.DYNAMIC, FlushPolicyKind.OPTIMAL, 8);
        m.register(hot, "hot");
        m.register(cold, "cold");
        m.tick();
        hot.entries = 900;
        cold.entries = 100;
        log.set(500);
        m.tick();
        // Memory shares 0.6 / 0.4, write shares 0.9 / 0.1: cold exceeds its share most.
        assertSame(cold, m.pick());
        // A flush of cold's 400 B would be smaller than what its L0 can use: hot gives memory instead.
        cold.usefulFlush = 500;
        assertSame(hot, m.pick());
        // Once it holds its smallest useful flush, the rate shares decide again.
        cold.memory = 500;
        assertSame(cold, m.pick());
        // When no tree holds its smallest useful flush, the rate shares decide among all.
        cold.memory = 400;
        hot.usefulFlush = 700;
        assertSame(cold, m.pick());
    }

    @Test
    void staticSchemeFlushesTheLeastRecentlyWrittenDatasetWhenAnotherBecomesActive() {
        WriteMemoryManager m = manager(WriteMemoryScheme.STATIC, FlushPolicyKind.OPTIMAL, 2);
        FakeTree a1 = tree("a.primary", 10, 1);
        FakeTree a2 = tree("a.index", 10, 1);
        FakeTree b = tree("b.primary", 10, 2);
        FakeTree c = tree("c.primary", 10, 3);
        m.register(a1, "a");
        m.register(a2, "a");
        m.register(b, "b");
        m.register(c, "c");
        m.noteWrite("a");
        m.noteWrite("b");
        m.noteWrite("a"); // a is now the most recent
        assertTrue(a1.flushes.isEmpty() && b.flushes.isEmpty());
        m.noteWrite("c"); // third dataset with D = 2: b, least recently written, flushes
        assertEquals(List.of(FlushCause.MEMORY), b.flushes);
        assertTrue(a1.flushes.isEmpty() && a2.flushes.isEmpty() && c.flushes.isEmpty());
    }

    @Test
    void staticSchemeFlushesAllTreesOfADatasetThatReachesItsShare() {
        WriteMemoryManager m = manager(WriteMemoryScheme.STATIC, FlushPolicyKind.OPTIMAL, 2);
        FakeTree a1 = tree("a.primary", 300 * 1024, 1);
        FakeTree a2 = tree("a.index", 300 * 1024, 1);
        FakeTree b = tree("b.primary", 100, 2);
        m.register(a1, "a");
        m.register(a2, "a");
        m.register(b, "b");
        m.tick(); // budget per dataset = 512 KiB; a holds 600 KiB
        assertEquals(1, a1.flushes.size());
        assertEquals(1, a2.flushes.size());
        assertTrue(b.flushes.isEmpty());
    }

    @Test
    void staticSchemeDoesNotAskAgainWhileADatasetsMemoryIsBeingFlushed() {
        WriteMemoryManager m = manager(WriteMemoryScheme.STATIC, FlushPolicyKind.OPTIMAL, 2);
        FakeTree a = tree("a.primary", 600 * 1024, 1);
        a.flushing = 590 * 1024; // sealed and on its way to disk; 10 KiB of new writes
        m.register(a, "a");
        m.tick();
        assertTrue(a.flushes.isEmpty(), "a slow flush must not make every tick seal another tiny component");
    }

    @Test
    void relievingPressureAsksNothingMoreWhileEnoughIsAlreadyBeingFlushed() {
        WriteMemoryManager m = manager(WriteMemoryScheme.DYNAMIC, FlushPolicyKind.MAX_MEMORY, 8);
        FakeTree a = tree("a", 16 * 64 * 1024, 1);
        m.register(a, "a");
        List<Long> pages = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) { // the pool is full: 16 pages of 64 KiB
            pages.add(pool.tryAllocatePage());
        }
        a.flushing = 2 * 64 * 1024; // more than the 5% above the threshold is already on its way out
        m.relievePressure();
        assertTrue(a.flushes.isEmpty(), "a stalled writer retrying must not seal one tiny component after another");
        a.flushing = 0;
        m.relievePressure();
        assertEquals(List.of(FlushCause.MEMORY), a.flushes, "with nothing in flight, the policy's pick flushes");
        pages.forEach(pool::freePage);
    }
}
