package dev.breakwater.tpcc;

import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.TransactionAbortedException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated terminal (clause 5): a thread with a home warehouse and a home district (for
 * Stock-Level) that draws transactions from the current mix, optionally waits the keying and think
 * times, runs each through {@link TxExecutor} and records it in {@link RunMetrics}.
 *
 * <p>Thread safety: runs on its own thread; {@link #stop()} may be called from any thread.
 */
final class Terminal implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Terminal.class);

    private final Tables tables;
    private final StorageEngine engine;
    private final int homeW;
    private final int homeD;
    private final int warehouses;
    private final TpccRandom rnd;
    private final Supplier<Mix> mix;
    private final boolean thinkTimes;
    private final RunMetrics metrics;
    private volatile boolean stopped;

    Terminal(Tables tables, int homeW, int homeD, int warehouses, TpccRandom rnd, Supplier<Mix> mix, boolean thinkTimes,
             RunMetrics metrics) {
        this.tables = tables;
        this.engine = tables.engine();
        this.homeW = homeW;
        this.homeD = homeD;
        this.warehouses = warehouses;
        this.rnd = rnd;
        this.mix = mix;
        this.thinkTimes = thinkTimes;
        this.metrics = metrics;
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        while (!stopped) {
            TxType type = mix.get().pick(rnd);
            if (thinkTimes && !pause(type.keyingSeconds() * 1000L)) {
                return;
            }
            long start = System.nanoTime();
            try {
                TxExecutor.Outcome o = runOne(type);
                long end = System.nanoTime();
                metrics.of(type).record(o, end - start, metrics.inWindow(end));
            } catch (TransactionAbortedException e) {
                if (stopped || Thread.currentThread().isInterrupted()) {
                    return;
                }
                LOG.warn("{} gave up after retrying for {} s: {}", type.label(), TxExecutor.RETRY_FOR_NANOS / 1_000_000_000L,
                        e.getMessage());
                metrics.of(type).recordFailure(metrics.inWindow(System.nanoTime()));
            }
            if (thinkTimes) {
                // negative exponential think time with the type's mean, capped at 10x the mean (clause 5.2.5.4)
                double think = -Math.log(Math.max(1e-9, rnd.nextDouble())) * type.meanThinkSeconds();
                if (!pause((long) (Math.min(think, 10.0 * type.meanThinkSeconds()) * 1000))) {
                    return;
                }
            }
        }
    }

    private TxExecutor.Outcome runOne(TxType type) {
        return switch (type) {
            case NEW_ORDER -> {
                NewOrder.Input in = NewOrder.generate(rnd, homeW, warehouses);
                yield TxExecutor.run(engine, tx -> NewOrder.execute(tables, tx, in));
            }
            case PAYMENT -> {
                Payment.Input in = Payment.generate(rnd, homeW, warehouses);
                yield TxExecutor.run(engine, tx -> Payment.execute(tables, tx, in));
            }
            case ORDER_STATUS -> {
                OrderStatus.Input in = OrderStatus.generate(rnd, homeW);
                yield TxExecutor.run(engine, tx -> OrderStatus.execute(tables, tx, in));
            }
            case DELIVERY -> {
                Delivery.Input in = Delivery.generate(rnd, homeW);
                yield TxExecutor.run(engine, tx -> Delivery.execute(tables, tx, in));
            }
            case STOCK_LEVEL -> {
                StockLevel.Input in = StockLevel.generate(rnd, homeW, homeD);
                yield TxExecutor.run(engine, tx -> StockLevel.execute(tables, tx, in));
            }
        };
    }

    /** Sleeps up to {@code millis}, waking early when stopped; returns false if stopped. */
    private boolean pause(long millis) {
        long until = System.currentTimeMillis() + millis;
        while (!stopped) {
            long left = until - System.currentTimeMillis();
            if (left <= 0) {
                return true;
            }
            try {
                Thread.sleep(Math.min(left, 100));
            } catch (InterruptedException e) {
                return false;
            }
        }
        return false;
    }
}
