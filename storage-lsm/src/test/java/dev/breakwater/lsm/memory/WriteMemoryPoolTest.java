package dev.breakwater.lsm.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.memory.OffHeapArena;
import dev.breakwater.common.memory.OffHeapMemory;
import dev.breakwater.common.memory.OffHeapPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WriteMemoryPoolTest {

    private static final int PAGE = 64 * 1024;

    private long reservedBefore;
    private long arenasBefore;

    @BeforeEach
    void recordOffHeap() {
        reservedBefore = OffHeapMemory.reservedBytes();
        arenasBefore = OffHeapMemory.liveArenas();
    }

    @AfterEach
    void offHeapIsBackWhereItWas() {
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes(), "off-heap bytes leaked");
        assertEquals(arenasBefore, OffHeapMemory.liveArenas(), "arenas leaked");
    }

    private static WriteMemoryPool pool(int capacityPages, int pagesPerArena) {
        return new WriteMemoryPool(new WriteMemoryPoolOptions("test-pool", PAGE, (long) capacityPages * PAGE, (long) pagesPerArena * PAGE));
    }

    private static long arenaBytes(int pagesPerArena) {
        return (long) pagesPerArena * PAGE + OffHeapArena.ALIGNMENT;
    }

    @Test
    void accountingIsExactAndReturnsToZeroOnClose() {
        WriteMemoryPool pool = pool(16, 4);
        assertEquals(0, pool.usedBytes());
        assertEquals(0, pool.reservedBytes(), "memory is reserved lazily");
        List<Long> pages = new ArrayList<>();
        OffHeapPage view = new OffHeapPage();
        for (int i = 0; i < 5; i++) {
            long page = pool.tryAllocatePage();
            assertNotEquals(PagePool.NO_PAGE, page);
            assertEquals(0, page % 8);
            view.wrap(page, PAGE).fill(0, PAGE, (byte) i); // the whole page is ours to write
            pages.add(page);
        }
        assertEquals(5L * PAGE, pool.usedBytes());
        assertEquals(2 * arenaBytes(4), pool.reservedBytes());
        assertEquals(pool.reservedBytes(), OffHeapMemory.reservedBytes() - reservedBefore);
        assertEquals(2, pool.arenaCount());
        assertEquals(5, pages.stream().distinct().count());
        for (long page : pages) {
            pool.freePage(page);
        }
        assertEquals(0, pool.usedBytes());
        assertEquals(2 * arenaBytes(4), pool.reservedBytes(), "free arenas within the budget are kept for reuse");
        pool.close();
        pool.close(); // idempotent
        assertEquals(0, pool.reservedBytes());
    }

    @Test
    void exhaustedPoolReturnsNoPageUntilOneIsFreed() {
        try (WriteMemoryPool pool = pool(3, 2)) {
            long a = pool.tryAllocatePage();
            long b = pool.tryAllocatePage();
            long c = pool.tryAllocatePage();
            assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage());
            assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage());
            assertEquals(3L * PAGE, pool.usedBytes());
            assertEquals(1.0, pool.utilization(), 1e-9);
            pool.freePage(b);
            long d = pool.tryAllocatePage();
            assertNotEquals(PagePool.NO_PAGE, d);
            pool.freePage(a);
            pool.freePage(c);
            pool.freePage(d);
        }
    }

    @Test
    void capacityIsRoundedDownToWholePages() {
        try (WriteMemoryPool pool = new WriteMemoryPool(new WriteMemoryPoolOptions("t", PAGE, 2L * PAGE + PAGE / 2, PAGE))) {
            long a = pool.tryAllocatePage();
            long b = pool.tryAllocatePage();
            assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage());
            pool.freePage(a);
            pool.freePage(b);
        }
    }

    @Test
    void doubleFreeAndForeignAddressesAreRefused() {
        try (WriteMemoryPool pool = pool(4, 4)) {
            long a = pool.tryAllocatePage();
            pool.freePage(a);
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> pool.freePage(a));
            assertTrue(twice.getMessage().contains("freed twice"), twice.getMessage());
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class, () -> pool.freePage(a + 8));
            assertTrue(foreign.getMessage().contains("test-pool"), foreign.getMessage());
        }
    }

    @Test
    void shrinkReturnsFreeArenasAtOnceAndUsedOnesAsTheyAreFreed() {
        WriteMemoryPool pool = pool(8, 2);
        long[] pages = new long[8];
        for (int i = 0; i < 8; i++) {
            pages[i] = pool.tryAllocatePage();
        }
        assertEquals(4, pool.arenaCount());

        pool.setCapacity(2L * PAGE);
        assertEquals(4 * arenaBytes(2), pool.reservedBytes(), "used pages stay valid after a shrink");
        assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage(), "over budget: no new page");
        assertTrue(pool.utilization() > 1.0);

        // Pages are handed out arena by arena, lowest first: pages 6 and 7 are the newest arena's.
        pool.freePage(pages[7]);
        assertEquals(4, pool.arenaCount(), "arena still holds a used page");
        pool.freePage(pages[6]);
        assertEquals(3, pool.arenaCount(), "an arena whose pages are all free is closed while over budget");
        for (int i = 2; i < 6; i++) {
            pool.freePage(pages[i]);
        }
        assertEquals(1, pool.arenaCount());
        assertEquals(arenaBytes(2), pool.reservedBytes());
        assertEquals(pool.reservedBytes(), OffHeapMemory.reservedBytes() - reservedBefore);
        assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage(), "2 pages used of a 2-page budget");

        pool.setCapacity(6L * PAGE); // grow: takes effect at once
        for (int i = 2; i < 6; i++) {
            pages[i] = pool.tryAllocatePage();
            assertNotEquals(PagePool.NO_PAGE, pages[i]);
        }
        assertEquals(PagePool.NO_PAGE, pool.tryAllocatePage());
        assertEquals(3, pool.arenaCount());
        for (int i = 0; i < 6; i++) {
            pool.freePage(pages[i]);
        }
        assertEquals(3, pool.arenaCount(), "free arenas within the budget are kept");
        pool.setCapacity(2L * PAGE);
        assertEquals(1, pool.arenaCount(), "shrinking closes entirely free arenas at once");
        pool.setCapacity(0);
        assertEquals(0, pool.arenaCount());
        assertEquals(0, pool.reservedBytes());
        assertEquals(reservedBefore, OffHeapMemory.reservedBytes());
        pool.close();
    }

    @Test
    void thresholdListenerFiresOncePerCrossingAndRearmsBelow() {
        try (WriteMemoryPool pool = pool(10, 10)) {
            AtomicInteger fired = new AtomicInteger();
            AtomicReference<long[]> seen = new AtomicReference<>();
            ListenerRegistration registration = pool.addThresholdListener(0.5, (used, cap) -> {
                fired.incrementAndGet();
                seen.set(new long[] {used, cap});
            });
            long[] pages = new long[10];
            for (int i = 0; i < 4; i++) {
                pages[i] = pool.tryAllocatePage();
            }
            assertEquals(0, fired.get());
            pages[4] = pool.tryAllocatePage();
            assertEquals(1, fired.get());
            assertEquals(5L * PAGE, seen.get()[0]);
            assertEquals(10L * PAGE, seen.get()[1]);
            pages[5] = pool.tryAllocatePage();
            assertEquals(1, fired.get(), "edge-triggered");
            pool.freePage(pages[5]);
            pool.freePage(pages[4]);
            assertEquals(1, fired.get());
            pages[4] = pool.tryAllocatePage();
            assertEquals(2, fired.get(), "re-armed after usage fell below");
            pool.setCapacity(20L * PAGE); // now 25%: re-arms
            pool.setCapacity(8L * PAGE); // 62.5%: a shrink can cross too
            assertEquals(3, fired.get());
            registration.close();
            registration.close();
            pool.setCapacity(20L * PAGE);
            pool.setCapacity(8L * PAGE);
            assertEquals(3, fired.get(), "unregistered");
            for (int i = 0; i < 5; i++) {
                pool.freePage(pages[i]);
            }
        }
    }

    @Test
    void concurrentAllocateAndFreeNeverHandOutAPageTwice() throws Exception {
        int threads = 4;
        WriteMemoryPool pool = pool(24, 4);
        Set<Long> held = ConcurrentHashMap.newKeySet();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread worker = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                List<Long> mine = new ArrayList<>();
                try {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        if (mine.isEmpty() || (mine.size() < 10 && random.nextBoolean())) {
                            long page = pool.tryAllocatePage();
                            if (page != PagePool.NO_PAGE) {
                                if (!held.add(page)) {
                                    throw new AssertionError("page handed out twice: " + page);
                                }
                                mine.add(page);
                            }
                        } else {
                            long page = mine.remove(mine.size() - 1);
                            held.remove(page);
                            pool.freePage(page);
                        }
                        if (i % 1000 == 0 && seed == 0) {
                            pool.setCapacity((8L + random.nextInt(24)) * PAGE);
                        }
                    }
                    for (long page : mine) {
                        held.remove(page);
                        pool.freePage(page);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        for (Thread worker : workers) {
            worker.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(0, pool.usedBytes());
        assertTrue(held.isEmpty());
        pool.close();
    }

    @Test
    void closeWithPagesStillHeldReleasesMemoryAndReportsTheLeak() {
        WriteMemoryPool pool = pool(4, 4);
        pool.tryAllocatePage();
        IllegalStateException leak = assertThrows(IllegalStateException.class, pool::close);
        assertTrue(leak.getMessage().contains("1 pages still held"), leak.getMessage());
        assertEquals(0, pool.reservedBytes());
        assertThrows(IllegalStateException.class, pool::tryAllocatePage);
        assertFalse(pool.toString().isEmpty());
    }
}
