package dev.breakwater.kstreams;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Kafka Streams' documented recipe for bounding RocksDB memory across all stores of an instance:
 * one LRU block cache of {@code total} bytes shared by every store, with a write buffer manager
 * that charges memtables to that cache (a quarter of it), and index and filter blocks cached too.
 * What the word-count benchmark gives RocksDB so that both engines get the same memory.
 * Configured through the static {@link #configure(long)} before the stores open.
 * Thread safety: the shared objects are created once under the class lock.
 */
public final class BoundedRocksDbConfig implements RocksDBConfigSetter {

    private static long totalBytes = 64L << 20;
    private static Cache cache;
    private static WriteBufferManager writeBufferManager;

    /** Sets the memory all RocksDB stores share; call before any store opens. */
    public static synchronized void configure(long total) {
        totalBytes = total;
        cache = null;
        writeBufferManager = null;
    }

    private static synchronized void ensure() {
        if (cache == null) {
            cache = new LRUCache(totalBytes, -1, false, 0.1);
            writeBufferManager = new WriteBufferManager(totalBytes / 4, cache);
        }
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        ensure();
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(cache);
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(writeBufferManager);
        options.setTableFormatConfig(table);
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by all stores and live as long as the JVM
    }
}
