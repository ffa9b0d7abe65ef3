package dev.breakwater.lsm.sstable;

import java.io.IOException;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Packs sorted entries into leaf pages ({@link LeafPageDescriptor}) and hands each finished leaf
 * to a {@link Sink}.
 *
 * <p>Entries are encoded as the SSTable format version given at construction lays them out: the
 * current (dense) layout, or the legacy version 1 that tests write to check the old reader path.
 * A version-2 body's slot width follows the body's length (see
 * {@link LeafPageDescriptor#bodyLength(int, int, long)}), so it is decided when a leaf is serialized.
 *
 * <p>Without compression a leaf takes entries while its body fits one page payload.
 *
 * <p>With LZ4 a leaf takes entries while its body is at most
 * {@link SSTableFormat#MAX_LOGICAL_LEAF_PAGES} payloads <em>and</em> its compressed form fits one
 * page. Compressing after every entry would cost far more than the write itself, so the builder
 * compresses at checkpoints: first when the body outgrows one page, then after a gap estimated
 * from the ratio seen so far (three quarters of the room the ratio predicts). When a check fails,
 * or the logical limit is reached, the builder emits the longest prefix known to fit (the last
 * verified prefix, or the prefix that fits uncompressed) and carries the remaining entries into the
 * next leaf. A leaf whose body fits one page uncompressed is always written uncompressed, since
 * compressing it could not save a page and would cost every read a decompression.
 *
 * <p>Invariants: (1) {@code entries[0, entriesLen)} holds {@code count} records laid out as on the
 * page (headers, keys, values; no slots), record {@code i} at {@code starts[i]}, its key at
 * {@code keyStarts[i]} of {@code keyLengths[i]} bytes; (2) any single record fits one page uncompressed (the
 * writer checks), so the prefix that fits uncompressed is never empty and every emission makes
 * progress; (3) the first {@code verified} records compress into one page.
 *
 * <p>Thread safety: not thread-safe; owned by one writer.
 */
final class LeafBuilder {

    /** Receives each finished leaf. */
    interface Sink {
        /**
         * @param flags    page flags (0 or {@link SSTableFormat#FLAG_LZ4})
         * @param payload  the page payload {@code [0, length)}
         * @param records  holds the leaf's first and last key at the given offsets
         */
        void leaf(byte flags, byte[] payload, int length, byte[] records, int firstKeyOffset, int firstKeyLength,
                  int lastKeyOffset, int lastKeyLength) throws IOException;
    }

    private final Sink sink;
    private final int version;
    private final int payloadCap;
    private final int maxLogical;
    private final LZ4Compressor compressor;
    private final byte[] entries;
    private int entriesLen;
    private int[] starts = new int[256];
    /** Offset in {@link #entries} of record {@code i}'s key, and its length. */
    private int[] keyStarts = new int[256];
    private int[] keyLengths = new int[256];
    private int count;
    private int verified;
    private int nextCheck;
    private final byte[] body;
    private final byte[] compressed;

    /**
     * @param version SSTable format version whose leaf layout to write: {@link SSTableFormat#CURRENT_VERSION},
     *                or {@link SSTableFormat#LEGACY_VERSION_1} for tests of the legacy reader
     */
    LeafBuilder(int pageSize, Compression compression, Sink sink, int version) {
        if (version != SSTableFormat.CURRENT_VERSION && version != SSTableFormat.LEGACY_VERSION_1) {
            throw new IllegalArgumentException("cannot write leaves of SSTable format version " + version);
        }
        this.sink = sink;
        this.version = version;
        this.payloadCap = SSTableFormat.payload(pageSize);
        boolean lz4 = compression == Compression.LZ4;
        this.maxLogical = lz4 ? payloadCap * SSTableFormat.MAX_LOGICAL_LEAF_PAGES : payloadCap;
        this.compressor = lz4 ? LZ4Factory.fastestInstance().fastCompressor() : null;
        this.entries = new byte[maxLogical + payloadCap];
        this.body = new byte[maxLogical];
        this.compressed = lz4 ? new byte[4 + compressor.maxCompressedLength(maxLogical)] : null;
    }

    /** Adds a record; requires: key order and size limits were checked by the caller. */
    void add(byte[] key, int keyLen, byte[] value, int valueLen, boolean tombstone) throws IOException {
        int at = entriesLen;
        int storedValueLen = tombstone ? 0 : valueLen;
        int keyAt = at + writeHeader(at, keyLen, storedValueLen, tombstone);
        System.arraycopy(key, 0, entries, keyAt, keyLen);
        if (!tombstone) {
            System.arraycopy(value, 0, entries, keyAt + keyLen, valueLen);
        }
        entriesLen = keyAt + keyLen + storedValueLen;
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            keyStarts = Arrays.copyOf(keyStarts, count * 2);
            keyLengths = Arrays.copyOf(keyLengths, count * 2);
        }
        starts[count] = at;
        keyStarts[count] = keyAt;
        keyLengths[count] = keyLen;
        count++;
        settle(false);
    }

    /** Writes the entry header (the two lengths) at {@code entries[at]}; returns its length. */
    private int writeHeader(int at, int keyLen, int valueLen, boolean tombstone) {
        if (version == SSTableFormat.LEGACY_VERSION_1) {
            LittleEndian.putInt(entries, at, keyLen);
            LittleEndian.putInt(entries, at + 4, tombstone ? LeafPageDescriptor.V1_TOMBSTONE_BIT : valueLen);
            return LeafPageDescriptor.V1_ENTRY_HEADER;
        }
        int p = putVarint(entries, at, keyLen);
        return putVarint(entries, p, LeafPageDescriptor.valueField(valueLen, tombstone)) - at;
    }

    /** Writes {@code value} as an unsigned varint at {@code b[at]}; returns the offset after it. */
    static int putVarint(byte[] b, int at, int value) {
        while ((value & ~0x7F) != 0) {
            b[at++] = (byte) (value | 0x80);
            value >>>= 7;
        }
        b[at++] = (byte) value;
        return at;
    }

    /** Emits every record still held. */
    void finish() throws IOException {
        settle(true);
    }

    private void settle(boolean finishing) throws IOException {
        while (count > 0) {
            long size = bodyLength(count);
            if (size <= payloadCap) {
                if (finishing) {
                    emitRaw(count);
                }
                return;
            }
            if (compressor != null && size <= maxLogical) {
                if (!finishing && size < nextCheck) {
                    return;
                }
                int length = compressPrefix(count);
                if (length <= payloadCap) {
                    if (finishing) {
                        emit(SSTableFormat.FLAG_LZ4, compressed, length, count);
                        return;
                    }
                    verified = count;
                    int room = payloadCap - length;
                    double ratio = (double) length / size;
                    nextCheck = (int) Math.min(maxLogical, size + Math.max(256, (int) (room / ratio * 0.75)));
                    return;
                }
            }
            int raw = rawFitPrefix();
            if (compressor != null && verified > raw) {
                int length = compressPrefix(verified);
                emit(SSTableFormat.FLAG_LZ4, compressed, length, verified);
            } else {
                emitRaw(raw);
            }
        }
    }

    /** Body length of the first {@code records} records (long: a held record may overshoot an int only in theory). */
    private long bodyLength(int records) {
        int end = records == count ? entriesLen : starts[records];
        return LeafPageDescriptor.bodyLength(version, records, end);
    }

    /** Largest prefix whose body fits one page uncompressed (at least 1). */
    private int rawFitPrefix() {
        int p = 1;
        while (p < count && bodyLength(p + 1) <= payloadCap) {
            p++;
        }
        return p;
    }

    /** Serializes the body of the first {@code records} records into {@link #body}; returns its length. */
    private int serialize(int records) {
        int end = records == count ? entriesLen : starts[records];
        int length = (int) bodyLength(records);
        int w = LeafPageDescriptor.slotWidth(version, length);
        int slotsEnd = LeafPageDescriptor.slotOffset(w, records);
        putUnsigned(body, LeafPageDescriptor.countOffset(), w, records);
        for (int i = 0; i < records; i++) {
            putUnsigned(body, LeafPageDescriptor.slotOffset(w, i), w, slotsEnd + starts[i]);
        }
        System.arraycopy(entries, 0, body, slotsEnd, end);
        return length;
    }

    /** Writes the low {@code width} (2 to 4) bytes of {@code value} little endian. */
    private static void putUnsigned(byte[] b, int at, int width, int value) {
        b[at] = (byte) value;
        b[at + 1] = (byte) (value >>> 8);
        if (width > 2) {
            b[at + 2] = (byte) (value >>> 16);
            if (width > 3) {
                b[at + 3] = (byte) (value >>> 24);
            }
        }
    }

    /** Compresses the body of the first {@code records} records into {@link #compressed}; returns the payload length. */
    private int compressPrefix(int records) {
        int length = serialize(records);
        LittleEndian.putInt(compressed, 0, length);
        int c = compressor.compress(body, 0, length, compressed, 4, compressed.length - 4);
        return 4 + c;
    }

    private void emitRaw(int records) throws IOException {
        int length = serialize(records);
        emit((byte) 0, body, length, records);
    }

    /** Hands the leaf to the sink and drops its records, keeping the rest for the next leaf. */
    private void emit(byte flags, byte[] payload, int length, int records) throws IOException {
        int last = records - 1;
        sink.leaf(flags, payload, length, entries, keyStarts[0], keyLengths[0], keyStarts[last], keyLengths[last]);
        int drop = records == count ? entriesLen : starts[records];
        System.arraycopy(entries, drop, entries, 0, entriesLen - drop);
        for (int i = records; i < count; i++) {
            starts[i - records] = starts[i] - drop;
            keyStarts[i - records] = keyStarts[i] - drop;
            keyLengths[i - records] = keyLengths[i];
        }
        count -= records;
        entriesLen -= drop;
        verified = 0;
        nextCheck = 0;
    }
}
