package dev.breakwater.common.page;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Computes, writes and verifies the CRC32C checksum of a page laid out by {@link PageDescriptor}.
 * Works on heap or direct buffers without allocating (the JDK's CRC32C is intrinsified).
 *
 * <p>Thread safety: stateless; safe.
 */
public final class PageChecksum {

    private PageChecksum() {
    }

    /**
     * The CRC32C of bytes {@code [CHECKSUMMED_FROM, pageSize)} of the page that starts at
     * {@code page.position()}. The buffer's position and limit are unchanged.
     */
    public static int compute(ByteBuffer page, int pageSize) {
        CRC32C crc = new CRC32C();
        int base = page.position();
        int oldLimit = page.limit();
        page.limit(base + pageSize).position(base + PageDescriptor.CHECKSUMMED_FROM);
        crc.update(page);
        page.limit(oldLimit).position(base);
        return (int) crc.getValue();
    }

    /** Computes the checksum and stores it in the page's header. Call after the page is complete. */
    public static void seal(ByteBuffer page, int pageSize) {
        int sum = compute(page, pageSize);
        page.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(page.position() + PageDescriptor.CHECKSUM_OFFSET, sum);
    }

    /**
     * Verifies a page just read from disk.
     *
     * @param file       names the file in the exception message
     * @param pageNumber the page's index in the file, which the header must repeat
     * @throws CorruptPageException naming file, page, expected and actual values on any mismatch
     */
    public static void verify(ByteBuffer page, int pageSize, String file, long pageNumber) throws CorruptPageException {
        int stored = PageDescriptor.checksum(page);
        int actual = compute(page, pageSize);
        if (stored != actual) {
            throw new CorruptPageException(file, pageNumber, String.format(
                    "checksum mismatch: expected 0x%08x (stored in header), actual 0x%08x", stored, actual));
        }
        short version = PageDescriptor.version(page);
        if (version != PageDescriptor.FORMAT_VERSION) {
            throw new CorruptPageException(file, pageNumber, "unsupported page format version " + version
                    + ", this build reads version " + PageDescriptor.FORMAT_VERSION);
        }
        int recorded = PageDescriptor.pageNumber(page);
        if (recorded != (int) pageNumber) {
            throw new CorruptPageException(file, pageNumber, "page records number " + recorded
                    + ", expected " + pageNumber + " (misdirected write or read)");
        }
    }
}
