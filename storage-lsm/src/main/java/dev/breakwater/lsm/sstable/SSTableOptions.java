package dev.breakwater.lsm.sstable;

/**
 * How an {@link SSTableWriter} lays out a table.
 *
 * @param pageSize         bytes per page: a power of two &gt;= 4096, equal to the buffer cache's
 * @param bloomBitsPerKey  Bloom filter bits per key (10 gives about 1% false positives; 0 = no
 *                         filter). Per table, so that levels can be sized differently (Monkey).
 * @param compression      leaf-page compression
 * @param writeBatchPages  pages gathered in memory before one sequential write
 * @param directIo         open the file with {@link dev.breakwater.common.io.OpenOption#DIRECT}
 */
public record SSTableOptions(int pageSize, double bloomBitsPerKey, Compression compression, int writeBatchPages,
                             boolean directIo) {

    /** Default bits per key: about 1% false positives. */
    public static final double DEFAULT_BLOOM_BITS_PER_KEY = 10;
    /** Default write batch: 1 MiB, large enough to run sequential writes near disk bandwidth. */
    public static final int DEFAULT_WRITE_BATCH_BYTES = 1 << 20;

    public SSTableOptions {
        if (pageSize < 4096 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("SSTable page size must be a power of two >= 4096, got " + pageSize);
        }
        if (!(bloomBitsPerKey >= 0) || bloomBitsPerKey > 64) {
            throw new IllegalArgumentException("Bloom bits per key must be in [0, 64], got " + bloomBitsPerKey);
        }
        if (compression == null) {
            throw new IllegalArgumentException("compression must not be null");
        }
        if (writeBatchPages < 1) {
            throw new IllegalArgumentException("write batch must be at least one page, got " + writeBatchPages);
        }
    }

    /** 10 bits per key, no compression, 1 MiB write batches, buffered I/O. */
    public static SSTableOptions defaults(int pageSize) {
        return new SSTableOptions(pageSize, DEFAULT_BLOOM_BITS_PER_KEY, Compression.NONE,
                Math.max(1, DEFAULT_WRITE_BATCH_BYTES / pageSize), false);
    }

    public SSTableOptions withBloomBitsPerKey(double bits) {
        return new SSTableOptions(pageSize, bits, compression, writeBatchPages, directIo);
    }

    public SSTableOptions withCompression(Compression c) {
        return new SSTableOptions(pageSize, bloomBitsPerKey, c, writeBatchPages, directIo);
    }

    public SSTableOptions withWriteBatchPages(int pages) {
        return new SSTableOptions(pageSize, bloomBitsPerKey, compression, pages, directIo);
    }

    public SSTableOptions withDirectIo(boolean direct) {
        return new SSTableOptions(pageSize, bloomBitsPerKey, compression, writeBatchPages, direct);
    }
}
