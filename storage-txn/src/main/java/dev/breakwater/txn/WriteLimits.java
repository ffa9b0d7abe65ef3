package dev.breakwater.txn;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.lsm.sstable.SSTableFormat;
import dev.breakwater.txn.log.LogOptions;
import java.util.List;

/**
 * The sizes an engine can store, checked at the API so that nothing it accepts fails later in a
 * flush (docs/configuration.md, "Size limits"):
 *
 * <ul>
 *   <li>a <b>key</b> of any tree (the encoded primary key; for a secondary index the encoded indexed
 *       fields followed by the primary key) is at most {@link #maxKeyBytes()}: the SSTable limit, so
 *       that an SSTable footer holds its first and last key and an index page two separators;</li>
 *   <li>a <b>record</b> (encoded primary key plus encoded record) is at most
 *       {@link #maxRecordBytes()}: it must fit one page of write memory and one leaf page;</li>
 *   <li>a <b>transaction</b>'s log payload is at most {@link #maxTransactionBytes()}
 *       ({@code max-transaction-size}, capped by the log segment size).</li>
 * </ul>
 *
 * <p>Thread safety: immutable.
 */
final class WriteLimits {

    private final int pageSize;
    private final int maxKeyBytes;
    private final int maxRecordBytes;
    private final int maxTransactionBytes;

    private WriteLimits(int pageSize, int maxKeyBytes, int maxRecordBytes, int maxTransactionBytes) {
        this.pageSize = pageSize;
        this.maxKeyBytes = maxKeyBytes;
        this.maxRecordBytes = maxRecordBytes;
        this.maxTransactionBytes = maxTransactionBytes;
    }

    /** The limits for disk pages of {@code pageSize} bytes and write-memory pages of {@code poolPageSize}. */
    static WriteLimits of(StorageConfig config, int pageSize, int poolPageSize) {
        int maxRecord = Math.min(SSTableFormat.maxRecordLength(pageSize), poolPageSize - 256);
        int maxKey = Math.min(SSTableFormat.maxKeyLength(pageSize), maxRecord);
        return new WriteLimits(pageSize, maxKey, maxRecord, LogOptions.fromConfig(config).maxRecordSize());
    }

    int maxKeyBytes() {
        return maxKeyBytes;
    }

    int maxRecordBytes() {
        return maxRecordBytes;
    }

    int maxTransactionBytes() {
        return maxTransactionBytes;
    }

    /**
     * Checks a record's primary key, every secondary key it makes and its size, before anything is
     * locked or buffered.
     *
     * @throws IllegalArgumentException naming the index, its fields, the size and the limit
     * @throws RecordTooLargeException  if key and record together exceed {@link #maxRecordBytes()}
     */
    void checkWrite(DatasetState ds, byte[] pk, Tuple record) {
        checkKey(ds, DatasetSpec.PRIMARY, ds.spec.primaryKey(), pk.length);
        int size = ds.records.encodedSize(record) + pk.length;
        if (size > maxRecordBytes) {
            throw new RecordTooLargeException("record of " + size + " bytes (key and value) for dataset " + ds.spec.name()
                    + " exceeds the limit of " + maxRecordBytes + " bytes for " + ConfigOptions.PAGE_SIZE.name() + " " + pageSize);
        }
        for (DatasetState.Secondary sec : ds.secondaries) {
            checkKey(ds, sec.spec().name(), DatasetState.secondaryKeyFields(ds.spec, sec.spec()), sec.codec().keyOf(record).length);
        }
    }

    /** Checks a primary key given to delete: a tombstone is stored like any key. */
    void checkPrimaryKey(DatasetState ds, byte[] pk) {
        checkKey(ds, DatasetSpec.PRIMARY, ds.spec.primaryKey(), pk.length);
    }

    private void checkKey(DatasetState ds, String index, List<String> fields, int length) {
        if (length > maxKeyBytes) {
            throw new IllegalArgumentException("dataset " + ds.spec.name() + ": the " + index + " index key " + fields
                    + " encodes to " + length + " bytes, over the key limit of " + maxKeyBytes + " bytes for "
                    + ConfigOptions.PAGE_SIZE.name() + " " + pageSize + " (about half a page; see docs/configuration.md, "
                    + "\"Size limits\"): shorten the values of these fields");
        }
    }

    /**
     * Checks a tree operation read from the log at open. A record written before keys were checked
     * at the API would fail every flush of its tree; refusing to open names it instead.
     *
     * @throws StorageException naming the LSN, the tree and the sizes
     */
    void checkReplayed(long lsn, int keyLength, int valueLength, LsmTree tree) {
        if (keyLength > maxKeyBytes || (long) keyLength + valueLength > maxRecordBytes) {
            throw new StorageException("log record at LSN " + lsn + " writes a key of " + keyLength + " bytes and a value of "
                    + valueLength + " bytes to tree " + tree.name() + ", over this engine's limits (key " + maxKeyBytes
                    + " bytes, key plus value " + maxRecordBytes + " bytes for " + ConfigOptions.PAGE_SIZE.name() + " " + pageSize
                    + "); it cannot be stored in an SSTable, so the engine refuses to open rather than fail every flush or drop it. "
                    + "It was written before keys were checked at the API; keep the directory and report it");
        }
    }
}
