package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Writes a packed segment ({@link PackedSegmentFormat}) to a temporary file and syncs it, ready to be
 * renamed over its segment by {@link LogManager#replaceSealed}.
 *
 * <p>Thread safety: stateless; safe.
 */
final class PackedSegmentWriter {

    private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();

    private PackedSegmentWriter() {
    }

    /**
     * Writes and fsyncs {@code temp} (replacing any leftover) holding {@code records} records whose
     * bytes are {@code body[0, limit)} (little endian, {@link LogRecordFormat} layout), for the LSN
     * range {@code [firstLsn, endLsn)}. Returns the file's size.
     */
    static long write(FileSystem fs, Path temp, long firstLsn, long endLsn, ByteBuffer body, int records,
                      boolean trimmed, boolean compress) throws IOException {
        int rawLength = body.limit();
        byte[] raw = body.array();
        int rawOffset = body.arrayOffset();
        ByteBuffer out;
        int stored;
        if (compress) {
            byte[] file = new byte[PackedSegmentFormat.HEADER_LENGTH + LZ4.maxCompressedLength(rawLength)];
            stored = LZ4.compress(raw, rawOffset, rawLength, file, PackedSegmentFormat.HEADER_LENGTH);
            out = ByteBuffer.wrap(file, 0, PackedSegmentFormat.HEADER_LENGTH + stored);
        } else {
            byte[] file = new byte[PackedSegmentFormat.HEADER_LENGTH + rawLength];
            System.arraycopy(raw, rawOffset, file, PackedSegmentFormat.HEADER_LENGTH, rawLength);
            stored = rawLength;
            out = ByteBuffer.wrap(file);
        }
        out.order(ByteOrder.LITTLE_ENDIAN);
        int bodyCrc = PackedSegmentFormat.bodyCrc(ByteBuffer.wrap(out.array(), PackedSegmentFormat.HEADER_LENGTH, stored));
        int flags = (trimmed ? PackedSegmentFormat.FLAG_TRIMMED : 0) | (compress ? PackedSegmentFormat.FLAG_LZ4 : 0);
        PackedSegmentFormat.writeHeader(out, new PackedSegmentFormat.Header(flags, firstLsn, endLsn, records, rawLength,
                stored, bodyCrc));
        try (StorageFile f = fs.open(temp, OpenOption.CREATE, OpenOption.TRUNCATE, OpenOption.WRITE)) {
            f.write(0, out);
            f.sync();
        }
        return PackedSegmentFormat.HEADER_LENGTH + (long) stored;
    }
}
