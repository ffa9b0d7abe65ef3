package dev.breakwater.bench.ycsb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB 0.17.0 {@link DB} over rocksdbjni, configured to match a Breakwater run so the two can be
 * compared through the same client.
 *
 * <p>Configuration (properties): {@code rocksdb.dir} (required); {@code rocksdb.memory}, the total
 * storage memory: an LRU block cache of that size to which the memtables are charged through a
 * {@link WriteBufferManager} limited to {@code rocksdb.writememory} (default a quarter of the total),
 * so block cache plus write buffers stay within the same budget as Breakwater's buffer cache plus
 * write memory; index and filter blocks are cached in it too. Memtables are
 * {@code rocksdb.memtable} bytes (default min(32m, write memory / 2), Breakwater's memory component
 * size). {@code rocksdb.sync}: false (default) writes the WAL without a sync per write, like
 * Breakwater's ASYNC; true syncs each write, like SYNC. {@code rocksdb.directio} (default true):
 * direct reads and direct I/O for flushes and compactions. Like Breakwater: no compression, 16 KB
 * blocks, 10-bit Bloom filters, leveled compaction; two background jobs (this machine has two cores).
 *
 * <p>Records: a record is stored as one value holding the ten fields ({@code [name length, name,
 * value length, value]} each); update reads, merges the given fields and writes the record back,
 * as Breakwater's binding and YCSB's own RocksDB binding do.
 *
 * <p>Like {@link BreakwaterDB}, instances share one database per JVM; the last {@link #cleanup}
 * flushes the memtables and waits until no flush or compaction is running or pending, then records
 * the engine's own counters ({@link #lastPhase()}) and closes.
 */
public class RocksDbDB extends DB {

    static {
        RocksDB.loadLibrary();
    }

    private static final Object LOCK = new Object();
    private static RocksDB db;
    private static Options options;
    private static Cache cache;
    private static WriteBufferManager writeBufferManager;
    private static Statistics statistics;
    private static WriteOptions writeOptions;
    private static int users;
    private static volatile PhaseCounters lastPhase;

    /**
     * RocksDB's own counters over one open–close cycle (statistics tickers), and the breakdown of
     * bytes written ({@code log}, {@code flush}, {@code merge.L<i>} = compaction bytes written into
     * level i, from the {@code rocksdb.cfstats} map property) with level sizes ({@code size.L<i>}).
     */
    public record PhaseCounters(long flushBytes, long compactionBytesWritten, long walBytes, long compactionBytesRead,
                                long stallMicros, Map<String, Long> breakdown) {
        public long totalBytesWritten() {
            return flushBytes + compactionBytesWritten + walBytes;
        }
    }

    /** Counters of the last phase that closed the database, or null. */
    public static PhaseCounters lastPhase() {
        return lastPhase;
    }

    @Override
    public void init() throws DBException {
        Properties p = getProperties();
        synchronized (LOCK) {
            if (db == null) {
                String dir = p.getProperty("rocksdb.dir");
                if (dir == null) {
                    throw new DBException("property rocksdb.dir is required");
                }
                long total = Sizes.parse(p.getProperty("rocksdb.memory", "256m"));
                long write = Sizes.parse(p.getProperty("rocksdb.writememory", Long.toString(total / 4)));
                long memtable = Sizes.parse(p.getProperty("rocksdb.memtable",
                        Long.toString(Math.min(32L << 20, Math.max(64L << 10, write / 2)))));
                boolean direct = Boolean.parseBoolean(p.getProperty("rocksdb.directio", "true"));
                boolean sync = Boolean.parseBoolean(p.getProperty("rocksdb.sync", "false").toLowerCase(Locale.ROOT));
                cache = new LRUCache(total);
                writeBufferManager = new WriteBufferManager(write, cache);
                statistics = new Statistics();
                BlockBasedTableConfig table = new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setBlockSize(16 * 1024)
                        .setFilterPolicy(new BloomFilter(10, false))
                        .setCacheIndexAndFilterBlocks(true)
                        .setPinL0FilterAndIndexBlocksInCache(true);
                options = new Options()
                        .setCreateIfMissing(true)
                        .setTableFormatConfig(table)
                        .setWriteBufferManager(writeBufferManager)
                        .setWriteBufferSize(memtable)
                        .setMaxWriteBufferNumber((int) Math.max(2, write / memtable))
                        .setCompressionType(CompressionType.NO_COMPRESSION)
                        .setMaxBackgroundJobs(2)
                        .setUseDirectReads(direct)
                        .setUseDirectIoForFlushAndCompaction(direct)
                        .setStatistics(statistics);
                writeOptions = new WriteOptions().setSync(sync);
                try {
                    db = RocksDB.open(options, dir);
                } catch (RocksDBException e) {
                    closeResources();
                    throw new DBException("cannot open RocksDB in " + dir, e);
                }
            }
            users++;
        }
    }

    @Override
    public void cleanup() throws DBException {
        synchronized (LOCK) {
            if (--users > 0 || db == null) {
                return;
            }
            try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
                db.flush(fo);
                settle();
                lastPhase = new PhaseCounters(statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES),
                        statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES),
                        statistics.getTickerCount(TickerType.WAL_FILE_BYTES),
                        statistics.getTickerCount(TickerType.COMPACT_READ_BYTES),
                        statistics.getTickerCount(TickerType.STALL_MICROS), breakdown());
            } catch (RocksDBException e) {
                throw new DBException("flushing RocksDB", e);
            } finally {
                closeResources();
            }
        }
    }

    /** Log, flush, compaction bytes written per output level, and level sizes. */
    private static Map<String, Long> breakdown() throws RocksDBException {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("log", statistics.getTickerCount(TickerType.WAL_FILE_BYTES));
        m.put("flush", statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES));
        Map<String, String> cf = db.getMapProperty("rocksdb.cfstats");
        java.util.TreeMap<String, Long> sizes = new java.util.TreeMap<>();
        for (var e : new java.util.TreeMap<>(cf).entrySet()) {
            java.util.regex.Matcher w = java.util.regex.Pattern.compile("compaction\\.L(\\d+)\\.(WriteGB|SizeBytes|CompCount)").matcher(e.getKey());
            if (!w.matches()) {
                continue;
            }
            double v = Double.parseDouble(e.getValue());
            switch (w.group(2)) {
                case "WriteGB" -> {
                    long bytes = Math.round(v * (1L << 30));
                    if (!w.group(1).equals("0")) { // L0 "writes" are flushes
                        m.merge("merge.L" + w.group(1), bytes, Long::sum);
                    }
                }
                case "SizeBytes" -> sizes.put("size.L" + w.group(1), (long) v);
                default -> m.merge("merges", (long) v, Long::sum);
            }
        }
        m.putAll(sizes);
        m.put("stallMillis", statistics.getTickerCount(TickerType.STALL_MICROS) / 1000);
        return m;
    }

    /** Waits until no flush or compaction is running or pending. */
    private static void settle() throws RocksDBException {
        while (true) {
            long pending = db.getLongProperty("rocksdb.compaction-pending")
                    + db.getLongProperty("rocksdb.num-running-compactions")
                    + db.getLongProperty("rocksdb.num-running-flushes")
                    + db.getLongProperty("rocksdb.mem-table-flush-pending");
            if (pending == 0) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeResources() {
        if (db != null) {
            db.close();
            db = null;
        }
        if (options != null) {
            options.close();
            options = null;
        }
        if (writeOptions != null) {
            writeOptions.close();
            writeOptions = null;
        }
        if (writeBufferManager != null) {
            writeBufferManager.close();
            writeBufferManager = null;
        }
        if (cache != null) {
            cache.close();
            cache = null;
        }
        if (statistics != null) {
            statistics.close();
            statistics = null;
        }
    }

    // ------------------------------------------------------------------------------------ records

    static byte[] serialize(Map<String, byte[]> fields) {
        int size = 0;
        for (var e : fields.entrySet()) {
            size += 8 + e.getKey().length() + e.getValue().length;
        }
        ByteBuffer b = ByteBuffer.allocate(size);
        for (var e : fields.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            b.putInt(name.length).put(name).putInt(e.getValue().length).put(e.getValue());
        }
        return b.array();
    }

    static Map<String, byte[]> deserialize(byte[] record) {
        Map<String, byte[]> m = new HashMap<>();
        ByteBuffer b = ByteBuffer.wrap(record);
        while (b.remaining() > 0) {
            byte[] name = new byte[b.getInt()];
            b.get(name);
            byte[] value = new byte[b.getInt()];
            b.get(value);
            m.put(new String(name, StandardCharsets.UTF_8), value);
        }
        return m;
    }

    private static void copy(Map<String, byte[]> record, Set<String> fields, Map<String, ByteIterator> result) {
        for (var e : record.entrySet()) {
            if (fields == null || fields.contains(e.getKey())) {
                result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
            }
        }
    }

    private static byte[] keyBytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Status read(String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            byte[] v = db.get(keyBytes(key));
            if (v == null) {
                return Status.NOT_FOUND;
            }
            copy(deserialize(v), fields, result);
            return Status.OK;
        } catch (RocksDBException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status scan(String tableName, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
            it.seek(keyBytes(startkey));
            while (it.isValid() && result.size() < recordcount) {
                HashMap<String, ByteIterator> row = new HashMap<>();
                copy(deserialize(it.value()), fields, row);
                result.add(row);
                it.next();
            }
            return Status.OK;
        }
    }

    @Override
    public Status update(String tableName, String key, Map<String, ByteIterator> values) {
        try {
            byte[] k = keyBytes(key);
            byte[] v = db.get(k);
            if (v == null) {
                return Status.NOT_FOUND;
            }
            Map<String, byte[]> record = deserialize(v);
            for (var e : values.entrySet()) {
                record.put(e.getKey(), e.getValue().toArray());
            }
            db.put(writeOptions, k, serialize(record));
            return Status.OK;
        } catch (RocksDBException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
        try {
            Map<String, byte[]> record = new HashMap<>();
            for (var e : values.entrySet()) {
                record.put(e.getKey(), e.getValue().toArray());
            }
            db.put(writeOptions, keyBytes(key), serialize(record));
            return Status.OK;
        } catch (RocksDBException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status delete(String tableName, String key) {
        try {
            db.delete(writeOptions, keyBytes(key));
            return Status.OK;
        } catch (RocksDBException e) {
            return Status.ERROR;
        }
    }
}
