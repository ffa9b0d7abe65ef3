package dev.breakwater.txn.log;

import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Looks for an intact record anywhere after a bad one in a segment: this is how recovery tells a
 * torn tail from damage in the middle of the log.
 *
 * <p>Why it works: the log is written in LSN order and each batch is fsynced before a later one is
 * written, so a crash can only leave garbage (or nothing) <em>after</em> the last intact record; an
 * intact record after a bad one means bytes that had been written, and usually acknowledged, were
 * damaged later. A record found here must satisfy every check the {@link SegmentScanner} makes: its
 * LSN field equals its own position (64 bits that must match exactly), its length is at most the
 * largest record size and within the file, and its CRC32C matches. Stale or random bytes pass all of
 * these with negligible probability, so a hit is evidence of real records, and zero-filled or
 * truncated tails (what file systems leave after a crash) never produce one. Every byte offset is
 * tried, since records have no alignment.
 *
 * <p>Cost: one sequential read of the rest of the segment, one 8-byte compare per offset, and a
 * CRC only where the LSN matches. Runs at recovery only.
 *
 * <p>Thread safety: not thread-safe; one search per instance.
 */
final class IntactRecordSearch {

    private static final int CHUNK = 1 << 20;

    private final StorageFile file;
    private final long firstLsn;
    private final long fileSize;
    private final int maxRecordSize;
    private final CRC32C crc = new CRC32C();

    IntactRecordSearch(StorageFile file, long firstLsn, long fileSize, int maxRecordSize) {
        this.file = file;
        this.firstLsn = firstLsn;
        this.fileSize = fileSize;
        this.maxRecordSize = maxRecordSize;
    }

    /** The file offset of the first intact record starting at or after {@code fromOffset}, or -1 if none. */
    long find(long fromOffset) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        long chunkStart = fromOffset;
        while (chunkStart + LogRecordFormat.HEADER_LENGTH <= fileSize) {
            int length = (int) Math.min(CHUNK, fileSize - chunkStart);
            chunk.clear().limit(length);
            file.read(chunkStart, chunk);
            // Offsets whose header lies wholly in this chunk; the next chunk starts at the first other.
            int lastHeader = length - LogRecordFormat.HEADER_LENGTH;
            for (int i = 0; i <= lastHeader; i++) {
                long offset = chunkStart + i;
                if (LogRecordFormat.lsn(chunk, i) == firstLsn + offset && isIntact(chunk, i, offset)) {
                    return offset;
                }
            }
            chunkStart += lastHeader + 1;
        }
        return -1;
    }

    /** Requires: the header at {@code i} of {@code chunk} carries the LSN of {@code offset}. */
    private boolean isIntact(ByteBuffer chunk, int i, long offset) throws IOException {
        long payloadLength = LogRecordFormat.payloadLength(chunk, i);
        if (payloadLength > maxRecordSize
                || offset + LogRecordFormat.recordLength((int) payloadLength) > fileSize) {
            return false;
        }
        ByteBuffer payload = ByteBuffer.allocate((int) payloadLength);
        file.read(offset + LogRecordFormat.HEADER_LENGTH, payload);
        payload.flip();
        long lsn = firstLsn + offset;
        return LogRecordFormat.checksum(crc, payload, lsn) == LogRecordFormat.checksum(chunk, i);
    }
}
