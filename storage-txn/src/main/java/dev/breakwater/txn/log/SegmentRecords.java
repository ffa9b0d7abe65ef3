package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The records of one sealed segment copied out of the reader's buffer, so that the {@link
 * SegmentPacker} can judge them newest first and then write the kept ones oldest first. The copy is
 * one buffer of at most the segment's span (payloads are never larger than the records that hold
 * them) plus three arrays indexed by position in the segment.
 *
 * <p>Immutable once {@link #read} returns; the payload views it hands out are read-only. Not shared
 * between threads (the packer's own).
 */
final class SegmentRecords {

    /** Reads a segment record by record into a consumer; returns whether it was already trimmed. */
    @FunctionalInterface
    interface Source {
        boolean forEach(LogRecordConsumer consumer) throws IOException;
    }

    private final ByteBuffer bytes;
    private long[] lsns = new long[256];
    private int[] offsets = new int[256];
    private int[] lengths = new int[256];
    private int count;
    private boolean wasTrimmed;

    private SegmentRecords(long span) {
        this.bytes = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 64, Math.max(0, span))).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Copies every record {@code source} yields; {@code span} bounds their payloads' total size. */
    static SegmentRecords read(long span, Source source) throws IOException {
        SegmentRecords r = new SegmentRecords(span);
        r.wasTrimmed = source.forEach(r::add);
        return r;
    }

    private void add(long lsn, ByteBuffer payload) {
        if (count == lsns.length) {
            lsns = Arrays.copyOf(lsns, count * 2);
            offsets = Arrays.copyOf(offsets, count * 2);
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        lsns[count] = lsn;
        offsets[count] = bytes.position();
        lengths[count] = payload.remaining();
        bytes.put(payload.duplicate());
        count++;
    }

    int count() {
        return count;
    }

    long lsn(int i) {
        return lsns[i];
    }

    /** Record {@code i}'s payload, between position and limit of a read-only view. */
    ByteBuffer payload(int i) {
        return bytes.slice(offsets[i], lengths[i]).asReadOnlyBuffer().order(bytes.order());
    }

    /** Whether the segment read was a packed file already trimmed by an earlier pass. */
    boolean wasTrimmed() {
        return wasTrimmed;
    }
}
