package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FastDecompressor;

/**
 * A packed segment ({@link PackedSegmentFormat}) read whole into memory, checked and, if
 * compressed, decompressed: its header and its records' bytes, ready for a {@link RecordBlockScanner}.
 *
 * <p>Thread safety: immutable once read; {@link #read} may run on any thread (recovery decompresses
 * several segments in parallel).
 */
final class PackedSegment {

    private static final LZ4FastDecompressor LZ4 = LZ4Factory.fastestInstance().fastDecompressor();

    final Path path;
    final PackedSegmentFormat.Header header;
    /** The records, little endian, position 0, limit = raw length. */
    final ByteBuffer body;
    /** Bytes read from the file. */
    final long storedBytes;

    private PackedSegment(Path path, PackedSegmentFormat.Header header, ByteBuffer body, long storedBytes) {
        this.path = path;
        this.header = header;
        this.body = body;
        this.storedBytes = storedBytes;
    }

    /** True if the file at {@code path} starts with the packed magic (a plain segment never does). */
    static boolean isPacked(FileSystem fs, Path path) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            return isPacked(f);
        }
    }

    static boolean isPacked(StorageFile f) throws IOException {
        if (f.size() < 4) {
            return false;
        }
        ByteBuffer b = ByteBuffer.allocate(4);
        f.read(0, b);
        b.flip();
        return PackedSegmentFormat.isPacked(b);
    }

    /** Reads just the header of the packed segment {@code path} named for {@code firstLsn}. */
    static PackedSegmentFormat.Header readHeader(FileSystem fs, Path path, long firstLsn) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            long size = f.size();
            ByteBuffer h = ByteBuffer.allocate((int) Math.min(size, PackedSegmentFormat.HEADER_LENGTH));
            f.read(0, h);
            h.flip();
            return PackedSegmentFormat.readHeader(h, path, size, firstLsn);
        }
    }

    /**
     * Reads, checks and decompresses the packed segment {@code path} named for {@code firstLsn}.
     *
     * @throws LogCorruptedException if the header, the body checksum or the decompression fails
     */
    static PackedSegment read(FileSystem fs, Path path, long firstLsn) throws IOException {
        try (StorageFile f = fs.open(path, OpenOption.READ)) {
            long size = f.size();
            if (size > Integer.MAX_VALUE) {
                throw new LogCorruptedException(path, 0, firstLsn, "packed segment of " + size + " bytes is too large");
            }
            ByteBuffer all = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
            f.read(0, all);
            all.flip();
            PackedSegmentFormat.Header h = PackedSegmentFormat.readHeader(all, path, size, firstLsn);
            ByteBuffer stored = all.slice(PackedSegmentFormat.HEADER_LENGTH, h.storedLength());
            if (PackedSegmentFormat.bodyCrc(stored) != h.bodyCrc()) {
                throw new LogCorruptedException(path, PackedSegmentFormat.HEADER_LENGTH, firstLsn,
                        "packed segment body fails its CRC32C");
            }
            ByteBuffer body;
            if (h.compressed()) {
                byte[] raw = new byte[h.rawLength()];
                try {
                    int used = LZ4.decompress(all.array(), PackedSegmentFormat.HEADER_LENGTH, raw, 0, raw.length);
                    if (used != h.storedLength()) {
                        throw new LZ4Exception("block used " + used + " of " + h.storedLength() + " stored bytes");
                    }
                } catch (LZ4Exception e) {
                    throw new LogCorruptedException(path, PackedSegmentFormat.HEADER_LENGTH, firstLsn,
                            "packed segment body does not decompress to its " + h.rawLength() + " bytes: " + e.getMessage());
                }
                body = ByteBuffer.wrap(raw);
            } else {
                if (h.rawLength() != h.storedLength()) {
                    throw new LogCorruptedException(path, 0, firstLsn, "uncompressed packed segment stores "
                            + h.storedLength() + " bytes but says its body is " + h.rawLength());
                }
                body = stored.slice();
            }
            return new PackedSegment(path, h, body.order(ByteOrder.LITTLE_ENDIAN), size);
        }
    }
}
