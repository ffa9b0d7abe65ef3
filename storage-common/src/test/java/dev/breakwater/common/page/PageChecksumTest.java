package dev.breakwater.common.page;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PageChecksumTest {

    private static ByteBuffer sealedPage(int pageSize, int pageNo, boolean direct) {
        ByteBuffer b = (direct ? ByteBuffer.allocateDirect(pageSize) : ByteBuffer.allocate(pageSize)).order(ByteOrder.LITTLE_ENDIAN);
        new Random(pageNo).ints(pageSize / 4).forEach(v -> {
            if (b.remaining() >= 4) {
                b.putInt(v);
            }
        });
        b.clear();
        PageDescriptor.writeHeader(b, (byte) 7, (byte) 1, pageNo, 123);
        PageChecksum.seal(b, pageSize);
        return b;
    }

    @Test
    void sealedPageVerifiesAndHeaderFieldsRoundTrip() {
        for (boolean direct : new boolean[] {false, true}) {
            ByteBuffer b = sealedPage(4096, 9, direct);
            assertDoesNotThrow(() -> PageChecksum.verify(b, 4096, "f", 9));
            assertEquals(PageDescriptor.FORMAT_VERSION, PageDescriptor.version(b));
            assertEquals(7, PageDescriptor.type(b));
            assertEquals(1, PageDescriptor.flags(b));
            assertEquals(9, PageDescriptor.pageNumber(b));
            assertEquals(123, PageDescriptor.payloadLength(b));
            assertEquals(0, b.position());
        }
    }

    @Test
    void everySingleBitFlipIsDetected() {
        ByteBuffer b = sealedPage(4096, 1, false);
        Random rnd = new Random(5);
        for (int i = 0; i < 200; i++) {
            int at = rnd.nextInt(4096);
            int bit = 1 << rnd.nextInt(8);
            b.put(at, (byte) (b.get(at) ^ bit));
            CorruptPageException e = assertThrows(CorruptPageException.class, () -> PageChecksum.verify(b, 4096, "/d/file.sst", 1));
            assertTrue(e.getMessage().contains("/d/file.sst") && e.getMessage().contains("page 1"), e.getMessage());
            b.put(at, (byte) (b.get(at) ^ bit));
        }
    }

    @Test
    void misplacedPageAndUnknownVersionAreNamed() {
        ByteBuffer b = sealedPage(4096, 3, false);
        CorruptPageException misplaced = assertThrows(CorruptPageException.class, () -> PageChecksum.verify(b, 4096, "f", 4));
        assertTrue(misplaced.getMessage().contains("records number 3, expected 4"), misplaced.getMessage());
        b.putShort(PageDescriptor.VERSION_OFFSET, (short) 99);
        PageChecksum.seal(b, 4096);
        CorruptPageException version = assertThrows(CorruptPageException.class, () -> PageChecksum.verify(b, 4096, "f", 3));
        assertTrue(version.getMessage().contains("version 99"), version.getMessage());
    }

    @Test
    void checksumMismatchMessageCarriesExpectedAndActual() {
        ByteBuffer b = sealedPage(4096, 0, false);
        int stored = PageDescriptor.checksum(b);
        b.put(2000, (byte) (b.get(2000) + 1));
        int actual = PageChecksum.compute(b, 4096);
        CorruptPageException e = assertThrows(CorruptPageException.class, () -> PageChecksum.verify(b, 4096, "x", 0));
        assertTrue(e.getMessage().contains(String.format("expected 0x%08x", stored)), e.getMessage());
        assertTrue(e.getMessage().contains(String.format("actual 0x%08x", actual)), e.getMessage());
    }
}
