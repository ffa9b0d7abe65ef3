package dev.breakwater.tpcc;

import dev.breakwater.txn.StorageEngine;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Loads the initial database (clause 4.3) into a fresh engine: creates the datasets, then runs the
 * load in parallel tasks — ITEM in ten slices, each warehouse with its STOCK, and each district with
 * its customers, history and orders — on {@code threads} threads, with a progress bar. The metadata
 * records the warehouse count and C-Load, and is marked loaded only after every task committed.
 *
 * <p>Thread safety: {@link #load} is called once, from one thread.
 */
public final class Loader {

    /** Rows per load transaction: large enough to amortize commits, small enough for one log record. */
    static final int BATCH_ROWS = 250;
    private static final int ITEM_SLICES = 10;

    private final StorageEngine engine;
    private final int warehouses;
    private final int threads;
    private final long seed;
    private final PrintStream progressOut;

    public Loader(StorageEngine engine, int warehouses, int threads, long seed, PrintStream progressOut) {
        this.engine = engine;
        this.warehouses = warehouses;
        this.threads = Math.max(1, threads);
        this.seed = seed;
        this.progressOut = progressOut;
    }

    /** Rows the load inserts, approximately (order lines average 10 per order). */
    static long expectedRows(int warehouses) {
        long perDistrict = 1 + 3L * Schema.CUSTOMERS + 10L * Schema.INITIAL_ORDERS
                + (Schema.INITIAL_ORDERS - Schema.FIRST_UNDELIVERED + 1);
        return Schema.ITEMS + warehouses * (1 + Schema.ITEMS + Schema.DISTRICTS * perDistrict);
    }

    /** Creates and fills the datasets; returns the handles. Requires: the engine has no harness datasets. */
    public Tables load() throws InterruptedException {
        Tables tables = Tables.create(engine);
        TpccRandom seeds = new TpccRandom(seed, NurandConstants.forLoad(new java.util.SplittableRandom(seed)));
        NurandConstants load = seeds.constants();
        long now = System.currentTimeMillis();
        AtomicLong rows = new AtomicLong();
        List<Consumer<InitialRows>> tasks = new ArrayList<>();
        int slice = Schema.ITEMS / ITEM_SLICES;
        for (int s = 0; s < ITEM_SLICES; s++) {
            int from = s * slice + 1;
            int to = s == ITEM_SLICES - 1 ? Schema.ITEMS : (s + 1) * slice;
            tasks.add(r -> r.items(from, to));
        }
        for (int w = 1; w <= warehouses; w++) {
            int ww = w;
            tasks.add(r -> r.warehouseAndStock(ww));
            for (int d = 1; d <= Schema.DISTRICTS; d++) {
                int dd = d;
                tasks.add(r -> r.district(ww, dd));
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "tpcc-loader");
            t.setDaemon(true);
            return t;
        });
        List<Future<?>> futures = new ArrayList<>();
        for (Consumer<InitialRows> task : tasks) {
            long taskSeed = seeds.nextLong();
            futures.add(pool.submit(() -> {
                try (BatchInserter out = new BatchInserter(engine, BATCH_ROWS, rows)) {
                    task.accept(new InitialRows(tables, new TpccRandom(taskSeed, load), out, now));
                }
            }));
        }
        pool.shutdown();
        ProgressBar bar = progressOut == null ? null : new ProgressBar(progressOut, "load " + warehouses + " W", expectedRows(warehouses));
        try {
            while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                if (bar != null) {
                    bar.update(rows.get());
                }
                for (Future<?> f : futures) {
                    if (f.isDone()) {
                        f.get(); // fail fast
                    }
                }
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (ExecutionException e) {
            pool.shutdownNow();
            throw new IllegalStateException("load failed: " + e.getCause(), e.getCause());
        }
        if (bar != null) {
            bar.finish(rows.get());
        }
        MetaStore meta = new MetaStore(tables);
        meta.put(MetaStore.WAREHOUSES, warehouses);
        meta.put(MetaStore.C_LAST_LOAD, load.cLast());
        meta.put(MetaStore.LOADED, 1);
        return tables;
    }
}
