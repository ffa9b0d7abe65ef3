package dev.breakwater.kstreams;

import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.txn.StorageEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * One {@link StorageEngine} per engine directory (by default {@code <state.dir>/<application.id>/breakwater}),
 * shared by every Breakwater store of every task of the application instance in this JVM (and of
 * other instances given the same {@value BreakwaterStores#ENGINE_DIR}), so they draw on one write
 * memory, one buffer cache, one log and one memory tuner.
 *
 * <p>Reference counted: the first {@link #acquire} opens the engine (recovering it if the process
 * crashed), opens the {@link InstanceCatalog} and sweeps datasets whose task directory Kafka
 * Streams deleted; every store holds one {@link Lease} from {@code init} to {@code close}; the
 * last {@link Lease#close()} closes the engine (flushing its memory), which releases the
 * directory for the next instance, a test's next driver or another process.
 *
 * <p>Invariants: (1) at most one entry per canonical engine directory; (2) an entry's engine is
 * open while its reference count is positive, and the entry is removed when it reaches zero;
 * (3) all stores of one directory use the configuration the engine was opened with: an acquire
 * with a different one is refused.
 *
 * <p>Thread safety: safe; the map and the counts are guarded by the class lock. Opening and closing
 * an engine happen under that lock, so a store's {@code init} may wait for another's engine open.
 */
final class EngineRegistry {

    /** Guarded by {@code EngineRegistry.class}. */
    private static final Map<Path, Entry> ENGINES = new HashMap<>();

    private EngineRegistry() {
    }

    private static final class Entry {
        final Path dir;
        final StorageEngine engine;
        final StorageConfig config;
        final InstanceCatalog catalog;
        /** Guarded by {@code EngineRegistry.class}. */
        int refs;

        Entry(Path dir, StorageEngine engine, StorageConfig config, InstanceCatalog catalog) {
            this.dir = dir;
            this.engine = engine;
            this.config = config;
            this.catalog = catalog;
        }
    }

    /** A store's share of an engine; close it exactly once (later closes do nothing). Not thread-safe. */
    static final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean released;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        StorageEngine engine() {
            return entry.engine;
        }

        InstanceCatalog catalog() {
            return entry.catalog;
        }

        @Override
        public void close() {
            if (!released) {
                released = true;
                release(entry);
            }
        }
    }

    /**
     * Returns a lease on the engine in {@code engineDir}, opening it if no store holds it.
     *
     * @throws ProcessorStateException if the engine is open with another configuration, or cannot be opened
     */
    static synchronized Lease acquire(Path engineDir, StorageConfig config) {
        Path dir;
        try {
            Files.createDirectories(engineDir);
            dir = engineDir.toRealPath();
        } catch (IOException e) {
            throw new ProcessorStateException("cannot create Breakwater engine directory " + engineDir, e);
        }
        Entry e = ENGINES.get(dir);
        if (e == null) {
            e = open(dir, config);
            ENGINES.put(dir, e);
        } else if (!e.config.equals(config)) {
            throw new ProcessorStateException("the Breakwater engine in " + dir + " is open with configuration " + e.config
                    + "; a store asked for " + config + ". All Breakwater stores of an application instance share one "
                    + "engine: give them the same StorageConfig (or set " + BreakwaterStores.CONFIG_FILE + ")");
        }
        e.refs++;
        return new Lease(e);
    }

    private static Entry open(Path dir, StorageConfig config) {
        StorageEngine engine = StorageEngine.open(dir, config);
        try {
            InstanceCatalog catalog = InstanceCatalog.open(engine);
            catalog.sweep();
            return new Entry(dir, engine, config, catalog);
        } catch (IOException ex) {
            closeQuietly(engine, ex);
            throw new ProcessorStateException("cannot read the store markers of the Breakwater engine in " + dir, ex);
        } catch (RuntimeException ex) {
            closeQuietly(engine, ex);
            throw ex;
        }
    }

    private static void closeQuietly(StorageEngine engine, Exception cause) {
        try {
            engine.close();
        } catch (RuntimeException suppressed) {
            cause.addSuppressed(suppressed);
        }
    }

    private static synchronized void release(Entry e) {
        if (--e.refs == 0) {
            ENGINES.remove(e.dir);
            e.engine.close();
        }
    }

    /** Engines open now (for tests). */
    static synchronized int openEngines() {
        return ENGINES.size();
    }
}
