package dev.breakwater.bench.ycsb;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.txn.Cursor;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.KeyRange;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import dev.breakwater.txn.UnknownDatasetException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB 0.17.0 {@link DB} binding for Breakwater, so the official client ({@code site.ycsb.Client}
 * or its classes in-process) runs the core workloads against it unchanged.
 *
 * <p>Storage: one dataset {@code usertable} with a string key and ten nullable byte fields
 * {@code field0..field9}. read and scan return the requested fields (all when {@code fields} is
 * null); insert writes the record with an upsert; update reads the record and writes it back with
 * the given fields replaced, in one transaction (the same read-modify-write the RocksDB runner
 * does); delete removes it. Every single-record write is its own durable transaction.
 *
 * <p>Engine: every client thread's instance shares one engine per JVM, opened by the first
 * {@link #init} and flushed, settled ({@link StorageEngine#flushAndAwaitMerges}) and closed by the
 * last {@link #cleanup}, so the leftover flush and merge work of a phase is paid by that phase.
 * Properties: {@code breakwater.dir} (required), {@code breakwater.memory} (total memory, default
 * 256m), {@code breakwater.writememory} (default a quarter of the total), {@code breakwater.durability}
 * (SYNC or ASYNC, default ASYNC), {@code breakwater.directio} (default true),
 * {@code breakwater.memorycomponent} and {@code breakwater.maxlog} (optional), and any engine option as
 * {@code breakwater.option.<name>} (for example {@code breakwater.option.l0-merge-policy=BATCHED}).
 *
 * <p>Measurement: {@link #lastPhase()} holds the engine's I/O counters over the last open–close
 * cycle (a YCSB phase), read just before the engine closed.
 */
public class BreakwaterDB extends DB {

    private static final Object LOCK = new Object();
    private static StorageEngine engine;
    private static Dataset table;
    private static int users;
    private static volatile PhaseCounters lastPhase;

    /**
     * Engine counters over one open–close cycle: bytes written by purpose and bytes read, and the
     * breakdown of bytes written ({@code log}, {@code flush}, {@code merge.L<i>} by merge output
     * level, summed over the trees) with the level sizes at the end ({@code size.L<i>}).
     */
    public record PhaseCounters(long flushBytes, long mergeBytes, long logBytes, long queryBytesRead,
                                long mergeBytesRead, long totalBytesWritten, Map<String, Long> breakdown) {
    }

    /** Log, flush and merge bytes per output level, and level sizes, from the engine's counters. */
    static Map<String, Long> breakdown(EngineStatistics s) {
        Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("log", s.io().bytesWritten(IoPurpose.LOG));
        m.put("flush", s.io().bytesWritten(IoPurpose.FLUSH));
        for (var t : s.trees().values()) {
            List<Long> merged = t.mergeBytesWrittenByLevel();
            for (int i = 0; i < merged.size(); i++) {
                m.merge("merge.L" + i, merged.get(i), Long::sum);
            }
            m.merge("merges", t.merges(), Long::sum);
            m.merge("flushes", t.flushes(), Long::sum);
            m.merge("flushStallMillis", t.flushStallNanos() / 1_000_000, Long::sum);
            m.merge("writeStallMillis", t.writeStallNanos() / 1_000_000, Long::sum);
        }
        for (var t : s.trees().values()) {
            for (int i = 0; i < t.levelBytes().size(); i++) {
                m.merge("size.L" + i, t.levelBytes().get(i), Long::sum);
            }
        }
        m.put("gcMillis", s.gcMillis());
        m.put("writeMemoryCapacity", s.writeMemoryCapacity());
        m.put("tunerCycles", (long) s.tuner().size());
        return m;
    }

    /** Counters of the last phase that closed the engine, or null. */
    public static PhaseCounters lastPhase() {
        return lastPhase;
    }

    @Override
    public void init() throws DBException {
        Properties p = getProperties();
        synchronized (LOCK) {
            if (engine == null) {
                String dir = p.getProperty("breakwater.dir");
                if (dir == null) {
                    throw new DBException("property breakwater.dir is required");
                }
                try {
                    engine = StorageEngine.open(Path.of(dir), config(p));
                    try {
                        table = engine.dataset(YcsbRecords.TABLE);
                    } catch (UnknownDatasetException e) {
                        table = engine.createDataset(spec());
                    }
                } catch (RuntimeException e) {
                    if (engine != null) {
                        engine.close();
                        engine = null;
                    }
                    throw new DBException("cannot open Breakwater in " + dir, e);
                }
            }
            users++;
        }
    }

    /** The engine configuration the properties describe. */
    static StorageConfig config(Properties p) {
        long total = Sizes.parse(p.getProperty("breakwater.memory", "256m"));
        long write = Sizes.parse(p.getProperty("breakwater.writememory", Long.toString(total / 4)));
        long component = Sizes.parse(p.getProperty("breakwater.memorycomponent",
                Long.toString(Math.min(32L << 20, Math.max(64L << 10, write / 2)))));
        StorageConfig.Builder b = StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, total)
                .set(ConfigOptions.WRITE_MEMORY, write)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, component)
                .set(ConfigOptions.DURABILITY, Durability.valueOf(p.getProperty("breakwater.durability", "ASYNC").toUpperCase(Locale.ROOT)))
                .set(ConfigOptions.DIRECT_IO, Boolean.parseBoolean(p.getProperty("breakwater.directio", "true")));
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("breakwater.option.")) {
                String v = p.getProperty(name);
                b.set(name.substring("breakwater.option.".length()), v.matches("-?\\d+") ? (Object) Integer.valueOf(v) : v);
            }
        }
        String maxLog = p.getProperty("breakwater.maxlog");
        if (maxLog != null) {
            b.set(ConfigOptions.MAX_LOG_SIZE, Sizes.parse(maxLog));
        }
        return b.build();
    }

    static DatasetSpec spec() {
        DatasetSpec.Builder b = DatasetSpec.builder(YcsbRecords.TABLE).field(YcsbRecords.KEY_FIELD, FieldType.STRING);
        for (int i = 0; i < YcsbRecords.FIELD_COUNT; i++) {
            b.nullableField(YcsbRecords.fieldName(i), FieldType.BYTES);
        }
        return b.primaryKey(YcsbRecords.KEY_FIELD).build();
    }

    @Override
    public void cleanup() throws DBException {
        synchronized (LOCK) {
            if (--users > 0 || engine == null) {
                return;
            }
            try {
                engine.flushAndAwaitMerges();
                EngineStatistics s = engine.statistics();
                var io = s.io();
                lastPhase = new PhaseCounters(io.bytesWritten(IoPurpose.FLUSH), io.bytesWritten(IoPurpose.MERGE),
                        io.bytesWritten(IoPurpose.LOG), io.bytesRead(IoPurpose.QUERY), io.bytesRead(IoPurpose.MERGE),
                        io.totalBytesWritten(), breakdown(s));
                engine.close();
            } catch (RuntimeException e) {
                throw new DBException("closing Breakwater", e);
            } finally {
                engine = null;
                table = null;
            }
        }
    }

    private static int fieldIndex(String name) {
        // "field<i>": YCSB's default field names; parsed in place (no substring per field per operation).
        if (name.length() == 6 && name.startsWith("field")) {
            int i = name.charAt(5) - '0';
            if (i >= 0 && i < YcsbRecords.FIELD_COUNT) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown field " + name + " (the binding stores field0..field9)");
    }

    private static void copyFields(Tuple t, Set<String> fields, Map<String, ByteIterator> result) {
        if (fields == null) {
            for (int i = 0; i < YcsbRecords.FIELD_COUNT; i++) {
                if (!t.isNull(1 + i)) {
                    result.put(YcsbRecords.fieldName(i), new ByteArrayByteIterator(t.getBytes(1 + i)));
                }
            }
        } else {
            for (String f : fields) {
                int i = fieldIndex(f);
                if (!t.isNull(1 + i)) {
                    result.put(f, new ByteArrayByteIterator(t.getBytes(1 + i)));
                }
            }
        }
    }

    @Override
    public Status read(String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            Tuple t = table.get(Key.of(key));
            if (t == null) {
                return Status.NOT_FOUND;
            }
            copyFields(t, fields, result);
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status scan(String tableName, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        try (Cursor<Tuple> c = table.scan(KeyRange.atLeast(Key.of(startkey)))) {
            while (result.size() < recordcount && c.hasNext()) {
                HashMap<String, ByteIterator> row = new HashMap<>();
                copyFields(c.next(), fields, row);
                result.add(row);
            }
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status update(String tableName, String key, Map<String, ByteIterator> values) {
        try {
            Object[] replace = new Object[YcsbRecords.FIELD_COUNT];
            for (var e : values.entrySet()) {
                replace[fieldIndex(e.getKey())] = e.getValue().toArray();
            }
            Key k = Key.of(key);
            boolean found = engine.callInTransaction(tx -> {
                Tuple t = tx.get(table, k);
                if (t == null) {
                    return false;
                }
                for (int i = 0; i < replace.length; i++) {
                    if (replace[i] != null) {
                        t = t.with(1 + i, replace[i]);
                    }
                }
                tx.upsert(table, t);
                return true;
            });
            return found ? Status.OK : Status.NOT_FOUND;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
        try {
            Object[] v = new Object[1 + YcsbRecords.FIELD_COUNT];
            v[0] = key;
            for (var e : values.entrySet()) {
                v[1 + fieldIndex(e.getKey())] = e.getValue().toArray();
            }
            table.upsert(Tuple.of(v));
            return Status.OK;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }

    @Override
    public Status delete(String tableName, String key) {
        try {
            return table.delete(Key.of(key)) ? Status.OK : Status.NOT_FOUND;
        } catch (RuntimeException e) {
            return Status.ERROR;
        }
    }
}
