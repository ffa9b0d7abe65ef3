package dev.breakwater.lsm.sstable;

import dev.breakwater.common.page.CorruptPageException;
import dev.breakwater.common.page.PageDescriptor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Encodes {@link SSTableMetadata} into a footer payload and decodes and validates it
 * ({@link FooterDescriptor}). Works on heap copies of the payload: used once per file open and
 * once per file written.
 *
 * <p>Thread safety: stateless.
 */
final class FooterCodec {

    private static final int BASE = PageDescriptor.HEADER_LENGTH;

    private FooterCodec() {
    }

    /** The footer payload (page bytes from offset 16) for {@code m}. */
    static byte[] encode(SSTableMetadata m) {
        byte[] first = m.firstKey();
        byte[] last = m.lastKey();
        int crcAt = FooterDescriptor.metadataCrcOffset(first.length, last.length) - BASE;
        ByteBuffer b = ByteBuffer.allocate(crcAt + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(FooterDescriptor.MAGIC_OFFSET - BASE, SSTableFormat.MAGIC);
        b.putInt(FooterDescriptor.FORMAT_VERSION_OFFSET - BASE, m.formatVersion());
        b.putInt(FooterDescriptor.PAGE_SIZE_OFFSET - BASE, m.pageSize());
        b.putLong(FooterDescriptor.ENTRY_COUNT_OFFSET - BASE, m.entryCount());
        b.putLong(FooterDescriptor.TOMBSTONE_COUNT_OFFSET - BASE, m.tombstoneCount());
        b.putLong(FooterDescriptor.MIN_LSN_OFFSET - BASE, m.minLsn());
        b.putLong(FooterDescriptor.MAX_LSN_OFFSET - BASE, m.maxLsn());
        b.putInt(FooterDescriptor.ROOT_PAGE_OFFSET - BASE, m.rootPage());
        b.putInt(FooterDescriptor.INDEX_HEIGHT_OFFSET - BASE, m.indexHeight());
        b.putInt(FooterDescriptor.LEAF_FIRST_OFFSET - BASE, m.leafFirstPage());
        b.putInt(FooterDescriptor.LEAF_COUNT_OFFSET - BASE, m.leafPageCount());
        b.putInt(FooterDescriptor.INDEX_FIRST_OFFSET - BASE, m.indexFirstPage());
        b.putInt(FooterDescriptor.INDEX_COUNT_OFFSET - BASE, m.indexPageCount());
        b.putInt(FooterDescriptor.BLOOM_FIRST_OFFSET - BASE, m.bloomFirstPage());
        b.putInt(FooterDescriptor.BLOOM_COUNT_OFFSET - BASE, m.bloomPageCount());
        b.putInt(FooterDescriptor.BLOOM_BLOCKS_OFFSET - BASE, m.bloomBlocks());
        b.putInt(FooterDescriptor.BLOOM_HASHES_OFFSET - BASE, m.bloomHashCount());
        b.putDouble(FooterDescriptor.BLOOM_BITS_PER_KEY_OFFSET - BASE, m.bloomBitsPerKey());
        b.put(FooterDescriptor.COMPRESSION_OFFSET - BASE, (byte) m.compression().code());
        b.putInt(FooterDescriptor.FIRST_KEY_LENGTH_OFFSET - BASE, first.length);
        b.putInt(FooterDescriptor.LAST_KEY_LENGTH_OFFSET - BASE, last.length);
        b.put(FooterDescriptor.KEYS_OFFSET - BASE, first);
        b.put(FooterDescriptor.KEYS_OFFSET - BASE + first.length, last);
        b.putInt(crcAt, crc(b.array(), crcAt));
        return b.array();
    }

    /**
     * Decodes a footer payload of {@code length} bytes.
     *
     * @throws CorruptPageException naming the file and page if any field is invalid
     */
    static SSTableMetadata decode(byte[] payload, int length, String file, int pageNo) throws CorruptPageException {
        if (length < FooterDescriptor.FIXED_PAYLOAD_BYTES || length > payload.length) {
            throw new CorruptPageException(file, pageNo, "footer payload of " + length + " bytes is shorter than the "
                    + FooterDescriptor.FIXED_PAYLOAD_BYTES + " fixed bytes (not an SSTable footer, or truncated)");
        }
        ByteBuffer b = ByteBuffer.wrap(payload, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        long magic = b.getLong(FooterDescriptor.MAGIC_OFFSET - BASE);
        if (magic != SSTableFormat.MAGIC) {
            throw new CorruptPageException(file, pageNo, String.format("bad footer magic 0x%016x, expected 0x%016x", magic, SSTableFormat.MAGIC));
        }
        int firstLen = b.getInt(FooterDescriptor.FIRST_KEY_LENGTH_OFFSET - BASE);
        int lastLen = b.getInt(FooterDescriptor.LAST_KEY_LENGTH_OFFSET - BASE);
        if (firstLen < 0 || lastLen < 0 || (long) FooterDescriptor.FIXED_PAYLOAD_BYTES + firstLen + lastLen != length) {
            throw new CorruptPageException(file, pageNo, "footer key lengths " + firstLen + "/" + lastLen
                    + " do not match payload length " + length);
        }
        int crcAt = FooterDescriptor.metadataCrcOffset(firstLen, lastLen) - BASE;
        int stored = b.getInt(crcAt);
        int actual = crc(payload, crcAt);
        if (stored != actual) {
            throw new CorruptPageException(file, pageNo, String.format("footer metadata CRC mismatch: stored 0x%08x, actual 0x%08x", stored, actual));
        }
        int version = b.getInt(FooterDescriptor.FORMAT_VERSION_OFFSET - BASE);
        if (!SSTableFormat.isReadable(version)) {
            throw new CorruptPageException(file, pageNo, "unsupported SSTable format version " + version
                    + ", this build reads versions " + SSTableFormat.readableVersions()
                    + " (written by a newer build, or not an SSTable footer)");
        }
        int compressionCode = b.get(FooterDescriptor.COMPRESSION_OFFSET - BASE) & 0xFF;
        Compression compression = Compression.ofCode(compressionCode);
        if (compression == null) {
            throw new CorruptPageException(file, pageNo, "unknown compression code " + compressionCode);
        }
        byte[] first = new byte[firstLen];
        byte[] last = new byte[lastLen];
        b.get(FooterDescriptor.KEYS_OFFSET - BASE, first);
        b.get(FooterDescriptor.KEYS_OFFSET - BASE + firstLen, last);
        return new SSTableMetadata(version, b.getInt(FooterDescriptor.PAGE_SIZE_OFFSET - BASE),
                b.getLong(FooterDescriptor.ENTRY_COUNT_OFFSET - BASE), b.getLong(FooterDescriptor.TOMBSTONE_COUNT_OFFSET - BASE),
                first, last, b.getLong(FooterDescriptor.MIN_LSN_OFFSET - BASE), b.getLong(FooterDescriptor.MAX_LSN_OFFSET - BASE),
                b.getInt(FooterDescriptor.ROOT_PAGE_OFFSET - BASE), b.getInt(FooterDescriptor.INDEX_HEIGHT_OFFSET - BASE),
                b.getInt(FooterDescriptor.LEAF_FIRST_OFFSET - BASE), b.getInt(FooterDescriptor.LEAF_COUNT_OFFSET - BASE),
                b.getInt(FooterDescriptor.INDEX_FIRST_OFFSET - BASE), b.getInt(FooterDescriptor.INDEX_COUNT_OFFSET - BASE),
                b.getInt(FooterDescriptor.BLOOM_FIRST_OFFSET - BASE), b.getInt(FooterDescriptor.BLOOM_COUNT_OFFSET - BASE),
                b.getInt(FooterDescriptor.BLOOM_BLOCKS_OFFSET - BASE), b.getInt(FooterDescriptor.BLOOM_HASHES_OFFSET - BASE),
                b.getDouble(FooterDescriptor.BLOOM_BITS_PER_KEY_OFFSET - BASE), compression);
    }

    private static int crc(byte[] payload, int length) {
        CRC32C c = new CRC32C();
        c.update(payload, 0, length);
        return (int) c.getValue();
    }
}
