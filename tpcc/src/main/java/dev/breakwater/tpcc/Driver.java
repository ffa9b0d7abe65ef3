package dev.breakwater.tpcc;

import dev.breakwater.txn.EngineStatistics;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs the terminals against a loaded database: terminal {@code i} has home warehouse
 * {@code i mod W + 1} and home district {@code (i / W) mod 10 + 1}; the first {@code warmup} is not
 * measured (nor are the first {@code warmupTransactions}, when set, whichever ends first); once a second it samples throughput and memory sizes, switches the mix when asked, and
 * prints a progress line. The measured phase ends after {@code duration}, or at the first whole second
 * by which {@code transactions} have committed in it. Returns after every terminal has stopped.
 *
 * <p>Thread safety: {@link #run} is called once, from one thread; terminals run on their own.
 */
public final class Driver {

    private final Tables tables;
    private final RunOptions options;
    private final int cLastLoad;
    private final PrintStream progress;
    private volatile Mix currentMix;

    public Driver(Tables tables, RunOptions options, int cLastLoad, PrintStream progress) {
        this.tables = tables;
        this.options = options;
        this.cLastLoad = cLastLoad;
        this.progress = progress;
        this.currentMix = options.mix();
    }

    DriverResult run() throws InterruptedException {
        SplittableRandom seeds = new SplittableRandom(options.seed());
        NurandConstants run = NurandConstants.forRun(cLastLoad, seeds);
        RunMetrics metrics = new RunMetrics();
        long start = System.nanoTime();
        long warmupNanos = options.warmup().toNanos();
        long endNanos = start + warmupNanos + options.duration().toNanos();
        boolean warmupByCount = options.warmupTransactions() > 0 && warmupNanos > 0;
        // while the warm-up may end early on its transaction count, nothing is measured until it does
        metrics.measureFromNanos = warmupByCount ? Long.MAX_VALUE : start + warmupNanos;
        metrics.measureToNanos = endNanos;
        List<Terminal> terminals = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < options.terminals(); i++) {
            int w = i % options.warehouses() + 1;
            int d = (i / options.warehouses()) % Schema.DISTRICTS + 1;
            Terminal t = new Terminal(tables, w, d, options.warehouses(), new TpccRandom(seeds.nextLong(), run),
                    () -> currentMix, options.thinkTimes(), metrics);
            terminals.add(t);
            Thread th = new Thread(t, "terminal-" + (i + 1));
            th.setDaemon(true);
            threads.add(th);
        }
        threads.forEach(Thread::start);

        List<Sample> samples = new ArrayList<>();
        EngineStatistics before = warmupNanos == 0 ? tables.engine().statistics() : null;
        CpuSnapshot cpuBefore = warmupNanos == 0 ? CpuSnapshot.take() : null;
        long lastCommitted = 0;
        long lastNewOrders = 0;
        boolean switched = false;
        for (int second = 1; ; second++) {
            long wake = start + TimeUnit.SECONDS.toNanos(second);
            long now = System.nanoTime();
            if (warmupByCount && (metrics.totalCommitted() >= options.warmupTransactions() || now >= start + warmupNanos)) {
                warmupByCount = false;
                endNanos = now + options.duration().toNanos();
                metrics.measureToNanos = endNanos;
                metrics.measureFromNanos = now;
                progress.printf(Locale.ROOT, "%nwarm-up ended after %,d transactions at %.0fs%n", metrics.totalCommitted(),
                        (now - start) / 1e9);
            }
            if (options.transactions() > 0 && now >= metrics.measureFromNanos
                    && metrics.measuredCommitted() >= options.transactions()) {
                endNanos = now;
                metrics.measureToNanos = now;
                break;
            }
            if (wake > endNanos) {
                if (endNanos > now) {
                    TimeUnit.NANOSECONDS.sleep(endNanos - now);
                }
                break;
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, wake - now));
            if (before == null && System.nanoTime() >= metrics.measureFromNanos) {
                before = tables.engine().statistics();
                cpuBefore = CpuSnapshot.take();
            }
            if (!switched && options.mixSwitchAt() != null && TimeUnit.SECONDS.toNanos(second) >= options.mixSwitchAt().toNanos()) {
                currentMix = options.mixAfter();
                switched = true;
                progress.printf(Locale.ROOT, "%nswitching mix to %s at %ds%n", currentMix.label(), second);
            }
            EngineStatistics s = tables.engine().statistics();
            long committed = metrics.totalCommitted();
            long newOrders = metrics.of(TxType.NEW_ORDER).totalCommitted.sum();
            boolean measuring = System.nanoTime() >= metrics.measureFromNanos;
            samples.add(new Sample(second, measuring, currentMix.label(), committed - lastCommitted,
                    (newOrders - lastNewOrders) * 60.0, s.writeMemoryUsed(), s.writeMemoryCapacity(),
                    s.bufferCache().capacityBytes()));
            lastCommitted = committed;
            lastNewOrders = newOrders;
            printProgress(metrics, second, start);
        }
        EngineStatistics after = tables.engine().statistics();
        CpuSnapshot cpuAfter = CpuSnapshot.take();
        if (before == null) {
            before = after;
            cpuBefore = cpuAfter;
        }
        terminals.forEach(Terminal::stop);
        for (Thread th : threads) {
            th.join(TimeUnit.SECONDS.toMillis(30));
        }
        progress.println();
        double measured = (endNanos - metrics.measureFromNanos) / 1e9;
        return new DriverResult(metrics, samples, (metrics.measureFromNanos - start) / 1e9, measured, before, after,
                cpuBefore, cpuAfter);
    }

    /**
     * One progress line: the measured tpmC and tx/s (during the warm-up, its transactions and tx/s), and
     * the ETA from the time limits and, where the phases end on a transaction count, the rate so far.
     */
    private void printProgress(RunMetrics m, int second, long start) {
        long now = System.nanoTime();
        boolean measuring = now >= m.measureFromNanos;
        long committed = m.totalCommitted();
        double rate = committed / Math.max(1e-9, (now - start) / 1e9);
        double measureSeconds = options.duration().toNanos() / 1e9;
        if (options.transactions() > 0 && rate > 0) {
            measureSeconds = Math.min(measureSeconds, options.transactions() / rate);
        }
        double left;
        if (measuring) {
            left = (m.measureToNanos - now) / 1e9;
            if (options.transactions() > 0 && rate > 0) {
                left = Math.min(left, Math.max(0, options.transactions() - m.measuredCommitted()) / rate);
            }
        } else {
            double warmupLeft = (start + options.warmup().toNanos() - now) / 1e9;
            if (options.warmupTransactions() > 0 && rate > 0) {
                warmupLeft = Math.min(warmupLeft, Math.max(0, options.warmupTransactions() - committed) / rate);
            }
            left = Math.max(0, warmupLeft) + measureSeconds;
        }
        if (measuring) {
            double measuredMinutes = Math.max(1e-9, (now - m.measureFromNanos) / 60e9);
            progress.printf(Locale.ROOT, "\r[%4ds measure] tpmC %,9.0f  tx/s %,8.1f  rollbacks %,d  retries %,d  failures %,d  ETA %s   ",
                    second, m.of(TxType.NEW_ORDER).committed.sum() / measuredMinutes,
                    m.measuredCommitted() / (measuredMinutes * 60), m.measuredRollbacks(), m.measuredRetries(),
                    m.measuredFailures(), ProgressBar.formatSeconds((long) Math.max(0, left)));
        } else {
            progress.printf(Locale.ROOT, "\r[%4ds warm-up] transactions %,d%s  tx/s %,8.1f  ETA %s   ", second, committed,
                    options.warmupTransactions() > 0 ? String.format(Locale.ROOT, " of %,d", options.warmupTransactions()) : "",
                    rate, ProgressBar.formatSeconds((long) Math.max(0, left)));
        }
        progress.flush();
    }
}
