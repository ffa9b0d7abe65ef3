package dev.breakwater.common.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class OffHeapArenaTest {

    @Test
    void accountingIsExactAndReturnsToZeroOnClose() {
        long before = OffHeapMemory.reservedBytes();
        long arenasBefore = OffHeapMemory.liveArenas();
        OffHeapArena a = OffHeapArena.allocate("test-a", 8192, 10);
        OffHeapArena b = OffHeapArena.allocate("test-b", 4096, 3);
        assertEquals(8192 * 10 + OffHeapArena.ALIGNMENT, a.reservedBytes());
        assertEquals(a.reservedBytes() + b.reservedBytes(), OffHeapMemory.reservedBytes() - before);
        assertEquals(arenasBefore + 2, OffHeapMemory.liveArenas());
        a.close();
        a.close(); // idempotent: counted once
        b.close();
        assertEquals(before, OffHeapMemory.reservedBytes());
        assertEquals(arenasBefore, OffHeapMemory.liveArenas());
    }

    @Test
    void pagesAreAlignedDisjointAndViewedConsistently() {
        try (OffHeapArena a = OffHeapArena.allocate("test", 4096, 4)) {
            OffHeapPage page = new OffHeapPage();
            for (int i = 0; i < 4; i++) {
                assertEquals(0, a.pageAddress(i) % OffHeapArena.ALIGNMENT, "page " + i + " aligned");
                page.wrap(a.pageAddress(i), a.pageSize());
                page.fill(0, 4096, (byte) i);
                page.putLong(8, 1000L + i);
            }
            for (int i = 0; i < 4; i++) {
                ByteBuffer view = a.pageBuffer(i);
                assertEquals(4096, view.remaining());
                assertEquals(1000L + i, view.getLong(8), "buffer view and flyweight see the same bytes");
                assertEquals((byte) i, view.get(4095), "pages do not overlap");
            }
        }
    }

    @Test
    void closedArenaAndBadPagesAreRefusedWithClearMessages() {
        OffHeapArena a = OffHeapArena.allocate("named-owner", 4096, 2);
        IndexOutOfBoundsException oob = assertThrows(IndexOutOfBoundsException.class, () -> a.pageAddress(2));
        assertTrue(oob.getMessage().contains("named-owner"), oob.getMessage());
        a.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> a.pageAddress(0));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OffHeapArena.allocate("x", 1000, 1));
        assertThrows(IllegalArgumentException.class, () -> OffHeapArena.allocate("x", 4096, 0));
    }

    @Test
    void flyweightCopiesAndComparesUnsigned() {
        try (OffHeapArena a = OffHeapArena.allocate("test", 4096, 1)) {
            OffHeapPage p = new OffHeapPage(a.pageAddress(0), 4096);
            byte[] key = {1, (byte) 0xFF, 3};
            p.putBytes(100, key, 0, 3);
            byte[] back = new byte[3];
            p.getBytes(100, back, 0, 3);
            assertEquals(0, java.util.Arrays.compare(key, back));
            assertEquals(0, p.compareUnsigned(100, 3, key, 0, 3));
            assertTrue(p.compareUnsigned(100, 3, new byte[] {1, 0x7F, 3}, 0, 3) > 0, "0xFF sorts after 0x7F unsigned");
            assertTrue(p.compareUnsigned(100, 2, key, 0, 3) < 0, "a prefix sorts first");
            p.copyTo(100, p, 200, 3);
            assertEquals(0, p.compareUnsigned(200, 3, key, 0, 3));
        }
    }
}
