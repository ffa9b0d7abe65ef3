package dev.breakwater.bench.logtrim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.Durability;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.common.key.FieldType;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.txn.Dataset;
import dev.breakwater.txn.DatasetSpec;
import dev.breakwater.txn.EngineStatistics;
import dev.breakwater.txn.Key;
import dev.breakwater.txn.StorageEngine;
import dev.breakwater.txn.Tuple;
import dev.breakwater.txn.log.PackerStatistics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Paper 002 (WAL-assisted tiering), scaled to this machine: the same engine with today's log and
 * with the log trimmed and LZ4-compressed ({@code log-trim}, {@code log-compression}), at the same
 * {@code max-log-size} and memory.
 *
 * <p>{@code --mode run} (Fig 5 and Table 1): a fresh engine, one dataset {@code usertable(id INT64,
 * field STRING)} of {@code --records} records of about {@code --record-bytes} (compressible text:
 * words from a 256-word vocabulary, as db_bench's compressibility 0.5), loaded by upserts in key
 * order, then {@code --seconds} of a workload from {@code --threads} threads over uniformly random
 * keys ({@code --distribution zipfian}: YCSB's scrambled Zipfian, see {@link KeyChooser}):
 * {@code write-only} (upserts), {@code mixed} (50% reads) or {@code read-heavy} (95% reads).
 * ASYNC durability (the paper's setting). Reported: ops/s of the timed phase, the peak of the log
 * directory's size on disk (sampled every 50 ms over load and run, from the file sizes), bytes
 * flushed by cause, merge bytes, and the packer's counters.
 *
 * <p>{@code --mode recovery} (Table 4): upserts new keys until the log reaches {@code --log-mb} MiB,
 * with nothing flushed (large write memory and log limit), waits until the packer compressed every
 * sealed segment ({@code --variant lz4}) or not ({@code plain}), copies the directory (the crash
 * image: the log is synced, no other file changes), and times {@link StorageEngine#open} on
 * {@code --repeat} copies after one untimed open of another copy (class loading, first JIT
 * compilations): replay of the whole log into memory, decompressing packed segments on three threads
 * ahead of replay. With {@code --cold true} the operating system's page cache is
 * dropped before each timed open (as after a machine restart, when the log must come from the disk;
 * needs write access to {@code /proc/sys/vm/drop_caches}, i.e. root); without it the copies are
 * still in the page cache and recovery reads memory.
 *
 * <p>Not thread-safe; a command-line driver.
 */
public final class LogTrimBench {

    static final String USAGE = String.join("\n",
            "usage: java <jvm-options> -cp benchmarks.jar dev.breakwater.bench.logtrim.LogTrimBench [options]",
            "  --mode run|load|recovery (default run; load: load --records and save the settled directory as --image)",
            "  --variant base|trim|lz4|plain   base: today's log; trim: log-trim + log-compression (run mode);",
            "                           plain / lz4: compression off / on (recovery mode)",
            "  --workload write-only|mixed|read-heavy   (run mode, default write-only)",
            "  --distribution uniform|zipfian   run mode: keys of the workload (default uniform; zipfian: YCSB's",
            "                           scrambled Zipfian, constant 0.99)",
            "  --records N              records loaded (default 400000)",
            "  --record-bytes N         bytes of the text field (default 1000)",
            "  --seconds N              timed phase (default 60)",
            "  --threads N              client threads (default 2)",
            "  --write-memory-mb N      (default 128)   --total-memory-mb N (default 256)",
            "  --max-log-mb N           (default 64)    --segment-mb N (default 8)",
            "  --log-mb N               recovery mode: log to replay (default 64)",
            "  --repeat N               recovery mode: timed opens (default 3)",
            "  --cold true|false        recovery mode: drop the page cache before each open (root; default false)",
            "  --image PATH             run mode: start from a copy of this directory (made by --mode load) instead",
            "                           of loading; load mode: where to save the loaded directory",
            "  --warmup N               run mode: seconds of the workload before the timed phase (default 0)",
            "  --direct-io true|false   SSTable I/O with O_DIRECT (engine default true)",
            "  --trim-min-dead R        variant trim: log-trim-min-dead, the share of a segment's bytes a pass must",
            "                           drop to rewrite it by choice (engine default 0.5; 0: every changed segment)",
            "  --dir PATH               working directory (default /tmp/waltrim/bench)",
            "  --out FILE               JSON result");

    private static final String[] WORDS = new String[256];

    static {
        SplittableRandom r = new SplittableRandom(2002);
        for (int i = 0; i < WORDS.length; i++) {
            StringBuilder b = new StringBuilder();
            int len = 3 + r.nextInt(8);
            for (int j = 0; j < len; j++) {
                b.append((char) ('a' + r.nextInt(26)));
            }
            WORDS[i] = b.toString();
        }
    }

    private LogTrimBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = CliOptions.parse(args);
        if (o.containsKey("help")) {
            System.err.println(USAGE);
            return;
        }
        String mode = o.getOrDefault("mode", "run");
        Path dir = Path.of(o.getOrDefault("dir", "/tmp/waltrim/bench"));
        Map<String, Object> result = switch (mode) {
            case "recovery" -> recovery(o, dir);
            case "load" -> load(o, dir);
            case "run" -> run(o, dir);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
        result.put("load-average", Files.readString(Path.of("/proc/loadavg")).trim());
        result.put("args", String.join(" ", args));
        String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(result);
        System.out.println(json);
        if (o.containsKey("out")) {
            Files.writeString(Path.of(o.get("out")), json);
        }
    }

    static StorageConfig config(Map<String, String> o, boolean trim, boolean compress, long writeMemoryMb,
                                long totalMemoryMb, long maxLogMb) {
        return StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, totalMemoryMb << 20)
                .set(ConfigOptions.WRITE_MEMORY, writeMemoryMb << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, Math.max(1, writeMemoryMb / 8) << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, maxLogMb << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, Long.parseLong(o.getOrDefault("segment-mb", "8")) << 20)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.TUNER, false)
                .set(ConfigOptions.HTTP_ENABLED, false)
                .set(ConfigOptions.JMX_ENABLED, false)
                .set(ConfigOptions.LOG_TRIM, trim)
                .set(ConfigOptions.LOG_COMPRESSION, compress)
                .set(ConfigOptions.DIRECT_IO, Boolean.parseBoolean(o.getOrDefault("direct-io", "true")))
                .set(ConfigOptions.LOG_TRIM_MIN_DEAD, Double.parseDouble(o.getOrDefault("trim-min-dead",
                        String.valueOf(ConfigOptions.LOG_TRIM_MIN_DEAD.defaultValue()))))
                .build();
    }

    static DatasetSpec spec() {
        return DatasetSpec.builder("usertable").field("id", FieldType.INT64).field("field", FieldType.STRING)
                .primaryKey("id").build();
    }

    static String text(SplittableRandom r, int bytes) {
        StringBuilder b = new StringBuilder(bytes + 16);
        while (b.length() < bytes) {
            b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
        }
        b.setLength(bytes);
        return b.toString();
    }

    // ------------------------------------------------------------------ Fig 5 / Table 1

    static Map<String, Object> run(Map<String, String> o, Path root) throws Exception {
        String variant = o.getOrDefault("variant", "base");
        String workload = o.getOrDefault("workload", "write-only");
        int readPercent = switch (workload) {
            case "write-only" -> 0;
            case "mixed" -> 50;
            case "read-heavy" -> 95;
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
        long records = Long.parseLong(o.getOrDefault("records", "400000"));
        String distribution = o.getOrDefault("distribution", "uniform");
        KeyChooser.of(distribution, records); // rejects an unknown name before anything is copied
        int recordBytes = Integer.parseInt(o.getOrDefault("record-bytes", "1000"));
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "60"));
        int warmup = Integer.parseInt(o.getOrDefault("warmup", "0"));
        int threads = Integer.parseInt(o.getOrDefault("threads", "2"));
        long writeMb = Long.parseLong(o.getOrDefault("write-memory-mb", "128"));
        long totalMb = Long.parseLong(o.getOrDefault("total-memory-mb", "256"));
        long maxLogMb = Long.parseLong(o.getOrDefault("max-log-mb", "64"));
        boolean trim = variant.equals("trim");
        StorageConfig config = config(o, trim, trim, writeMb, totalMb, maxLogMb);
        Path dir = root.resolve("run-" + variant + "-" + workload);
        deleteTree(dir);
        Files.createDirectories(dir.getParent());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", "run");
        out.put("variant", variant);
        out.put("workload", workload);
        out.put("distribution", distribution);
        out.put("records", records);
        out.put("record-bytes", recordBytes);
        out.put("threads", threads);
        out.put("write-memory-mb", writeMb);
        out.put("total-memory-mb", totalMb);
        out.put("max-log-mb", maxLogMb);
        out.put("direct-io", config.get(ConfigOptions.DIRECT_IO));
        String image = o.get("image");
        if (image != null) {
            long start = System.nanoTime();
            copyTree(Path.of(image), dir);
            syncFileSystems();
            out.put("image", image);
            out.put("image-bytes", treeBytes(dir));
            out.put("copy-seconds", (System.nanoTime() - start) / 1e9);
        }
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset ds = image == null ? engine.createDataset(spec()) : engine.dataset(spec().name());
            AtomicLong peakLog = new AtomicLong();
            AtomicBoolean sampling = new AtomicBoolean(true);
            // Set once the timed phase starts: after the warmup, or after the load when there is none.
            AtomicBoolean timing = new AtomicBoolean(warmup == 0 && image != null);
            // Means over the timed phase, sampled every 500 ms: bytes in write memory, the log's span
            // (bytes logged since the truncation point) and its size on disk (what the log rule compares).
            long[] means = new long[4]; // samples, write memory, log span, log on disk; guarded by itself
            Path logDir = dir.resolve("log");
            // Where the peak comes from (session 13): the log directory at the sample that set it, and
            // the largest sample of every 10 s of the timed phase.
            AtomicLong runStart = new AtomicLong(System.nanoTime());
            AtomicReference<Map<String, Object>> peakAt = new AtomicReference<>(Map.of());
            AtomicLong windowMax = new AtomicLong();
            Thread sampler = new Thread(() -> {
                for (long i = 0; sampling.get(); i++) {
                    long[] files = logFiles(logDir);
                    long onDisk = files[0];
                    windowMax.accumulateAndGet(onDisk, Math::max);
                    if (onDisk > peakLog.get()) {
                        peakLog.set(onDisk);
                        if (timing.get()) {
                            EngineStatistics s = engine.statistics();
                            PackerStatistics pk = engine.logPackerStatistics();
                            Map<String, Object> at = new LinkedHashMap<>();
                            at.put("seconds-into-phase", (System.nanoTime() - runStart.get()) / 1e9);
                            at.put("log-disk-bytes", onDisk);
                            at.put("packing-temp-bytes", files[1]);
                            at.put("files", files[2]);
                            at.put("log-span-bytes", s.logSizeBytes());
                            at.put("write-memory-used", s.writeMemoryUsed());
                            at.put("packer-passes", pk.passes());
                            at.put("packer-compressed-segments", pk.compressedSegments());
                            peakAt.set(at);
                        }
                    }
                    if (i % 10 == 0 && timing.get()) {
                        EngineStatistics s = engine.statistics();
                        synchronized (means) {
                            means[0]++;
                            means[1] += s.writeMemoryUsed();
                            means[2] += s.logSizeBytes();
                            means[3] += onDisk;
                        }
                    }
                    sleep(50);
                }
            }, "log-size-sampler");
            sampler.setDaemon(true);
            sampler.start();
            if (image == null) {
                long loadStart = System.nanoTime();
                load(ds, records, recordBytes, threads);
                out.put("load-seconds", (System.nanoTime() - loadStart) / 1e9);
                out.put("peak-log-bytes-load", peakLog.get());
            }
            if (warmup == 0) {
                timing.set(true);
            }
            AtomicLong[] progress = new AtomicLong[threads];
            for (int t = 0; t < threads; t++) {
                progress[t] = new AtomicLong();
            }
            AtomicReference<PhaseCounters> before = new AtomicReference<>(PhaseCounters.now(engine));
            long warmupEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup);
            long deadline = warmupEnd + TimeUnit.SECONDS.toNanos(seconds);
            List<Long> timeline = new ArrayList<>();
            List<Long> logMaxTimeline = new ArrayList<>(); // guarded by timeline
            Thread clock = new Thread(() -> {
                // Starts the timed phase after the warmup (counters and op counts read together), then
                // records the operations of every 10 s of it.
                long next = warmup == 0 ? warmupEnd + TimeUnit.SECONDS.toNanos(10) : warmupEnd;
                long last = 0;
                while (next <= deadline) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        sleep(Math.max(1, wait / 1_000_000));
                        continue;
                    }
                    long sum = 0;
                    for (AtomicLong p : progress) {
                        sum += p.get();
                    }
                    if (!timing.get()) {
                        for (AtomicLong p : progress) {
                            p.set(0);
                        }
                        peakLog.set(0);
                        windowMax.set(0);
                        synchronized (means) {
                            Arrays.fill(means, 0);
                        }
                        before.set(PhaseCounters.now(engine));
                        runStart.set(System.nanoTime());
                        timing.set(true);
                        sum = 0;
                    } else {
                        synchronized (timeline) {
                            timeline.add(sum - last);
                            logMaxTimeline.add(windowMax.getAndSet(0));
                        }
                    }
                    last = sum;
                    next += TimeUnit.SECONDS.toNanos(10);
                }
            }, "bench-clock");
            clock.setDaemon(true);
            clock.start();
            parallel(threads, t -> {
                SplittableRandom r = new SplittableRandom(1000 + t);
                KeyChooser keys = KeyChooser.of(distribution, records);
                long n = 0;
                AtomicLong mine = progress[t];
                while ((n & 63) != 0 || System.nanoTime() < deadline) {
                    long id = keys.next(r);
                    if (r.nextInt(100) < readPercent) {
                        ds.get(Key.of(id));
                    } else {
                        ds.upsert(Tuple.of(id, text(r, recordBytes)));
                    }
                    n++;
                    if ((n & 63) == 0) {
                        mine.addAndGet(64);
                    }
                }
            });
            clock.join();
            PhaseCounters after = PhaseCounters.now(engine);
            double runSeconds = (after.nanos() - runStart.get()) / 1e9;
            sampling.set(false);
            sampler.join();
            long ops = 0;
            for (AtomicLong p : progress) {
                ops += p.get();
            }
            out.put("warmup-seconds", warmup);
            out.put("ops", ops);
            out.put("seconds", runSeconds);
            out.put("opsPerSecond", ops / runSeconds);
            synchronized (timeline) {
                out.put("ops-per-10s", new ArrayList<>(timeline));
                out.put("log-disk-max-per-10s", new ArrayList<>(logMaxTimeline));
            }
            out.put("peak-log-bytes", peakLog.get());
            out.put("peak-log-at", peakAt.get());
            synchronized (means) {
                long n = Math.max(1, means[0]);
                out.put("mean-write-memory-used", means[1] / n);
                out.put("mean-log-span-bytes", means[2] / n);
                out.put("mean-log-disk-bytes", means[3] / n);
            }
            out.put("flush", flushBytes(before.get().engine(), after.engine()));
            out.put("phase", after.since(before.get(), ops));
            out.put("packer-run", diff(before.get().packer(), engine.logPackerStatistics()));
            out.put("packer-total", engine.logPackerStatistics());
            out.put("log-disk-bytes-end", engine.logDiskBytes());
            out.put("log-span-bytes-end", after.engine().logSizeBytes());
            out.put("write-memory-used-end", after.engine().writeMemoryUsed());
        }
        deleteTree(dir);
        return out;
    }

    /** Upserts records 0..records-1 in key order, thread t taking the ids congruent to t. */
    static void load(Dataset ds, long records, int recordBytes, int threads) throws Exception {
        parallel(threads, t -> {
            SplittableRandom r = new SplittableRandom(t);
            for (long id = t; id < records; id += threads) {
                ds.upsert(Tuple.of(id, text(r, recordBytes)));
            }
        });
    }

    /**
     * Load mode: loads {@code --records} into a fresh engine (today's log), flushes everything and
     * waits for merges, closes it cleanly and moves the directory to {@code --image}, the settled
     * starting state both variants' runs copy, so the load is paid once and not inside a lock hold.
     */
    static Map<String, Object> load(Map<String, String> o, Path root) throws Exception {
        long records = Long.parseLong(o.getOrDefault("records", "400000"));
        int recordBytes = Integer.parseInt(o.getOrDefault("record-bytes", "1000"));
        int threads = Integer.parseInt(o.getOrDefault("threads", "2"));
        long writeMb = Long.parseLong(o.getOrDefault("write-memory-mb", "128"));
        long totalMb = Long.parseLong(o.getOrDefault("total-memory-mb", "256"));
        long maxLogMb = Long.parseLong(o.getOrDefault("max-log-mb", "64"));
        Path image = Path.of(Objects.requireNonNull(o.get("image"), "--mode load needs --image PATH"));
        StorageConfig config = config(o, false, false, writeMb, totalMb, maxLogMb);
        Path dir = root.resolve("load");
        deleteTree(dir);
        deleteTree(image);
        Files.createDirectories(dir.getParent());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", "load");
        out.put("records", records);
        out.put("record-bytes", recordBytes);
        long start = System.nanoTime();
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            load(engine.createDataset(spec()), records, recordBytes, threads);
            out.put("load-seconds", (System.nanoTime() - start) / 1e9);
            engine.flushAndAwaitMerges();
            out.put("settled-seconds", (System.nanoTime() - start) / 1e9);
            out.put("trees", engine.statistics().trees());
        }
        Files.createDirectories(image.getParent());
        Files.move(dir, image);
        out.put("image", image.toString());
        out.put("image-bytes", treeBytes(image));
        return out;
    }

    /** Writes back every dirty page of the machine, so a copied image does not write back during a timed phase. */
    static void syncFileSystems() throws IOException, InterruptedException {
        Process sync = new ProcessBuilder("sync").inheritIO().start();
        if (sync.waitFor() != 0) {
            throw new IOException("sync exited with " + sync.exitValue());
        }
    }

    static long treeBytes(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        }
    }

    private static Map<String, Long> flushBytes(EngineStatistics before, EngineStatistics after) {
        long mem = 0;
        long log = 0;
        long flushed = 0;
        long merge = 0;
        for (var e : after.trees().entrySet()) {
            TreeStatisticsSnapshot a = e.getValue();
            TreeStatisticsSnapshot b = before.trees().get(e.getKey());
            mem += a.bytesFlushedForMemory() - (b == null ? 0 : b.bytesFlushedForMemory());
            log += a.bytesFlushedForLog() - (b == null ? 0 : b.bytesFlushedForLog());
            flushed += a.bytesFlushed() - (b == null ? 0 : b.bytesFlushed());
            merge += a.mergeBytesWritten() - (b == null ? 0 : b.mergeBytesWritten());
        }
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("bytes-flushed", flushed);
        m.put("bytes-flushed-for-memory", mem);
        m.put("bytes-flushed-for-log", log);
        m.put("merge-bytes-written", merge);
        return m;
    }

    private static PackerStatistics diff(PackerStatistics a, PackerStatistics b) {
        return new PackerStatistics(b.passes() - a.passes(), b.trimmedSegments() - a.trimmedSegments(),
                b.compressedSegments() - a.compressedSegments(), b.bytesRead() - a.bytesRead(),
                b.bytesWritten() - a.bytesWritten(), b.recordsDropped() - a.recordsDropped(),
                b.recordsReduced() - a.recordsReduced(), b.passNanos() - a.passNanos(), b.failures() - a.failures(),
                b.segmentsKeptWhole() - a.segmentsKeptWhole(), b.segmentsForced() - a.segmentsForced(),
                b.bytesJudged() - a.bytesJudged(), b.deadBytesJudged() - a.deadBytesJudged());
    }

    // ------------------------------------------------------------------ Table 4

    static Map<String, Object> recovery(Map<String, String> o, Path root) throws Exception {
        String variant = o.getOrDefault("variant", "plain");
        boolean lz4 = variant.equals("lz4");
        long logMb = Long.parseLong(o.getOrDefault("log-mb", "64"));
        int recordBytes = Integer.parseInt(o.getOrDefault("record-bytes", "1000"));
        int repeat = Integer.parseInt(o.getOrDefault("repeat", "3"));
        boolean cold = Boolean.parseBoolean(o.getOrDefault("cold", "false"));
        // Room for the whole log in memory, so nothing is flushed and recovery replays all of it.
        long writeMb = Math.max(256, logMb * 3);
        StorageConfig config = StorageConfig.builder()
                .set(ConfigOptions.TOTAL_MEMORY, (writeMb + 64) << 20)
                .set(ConfigOptions.WRITE_MEMORY, writeMb << 20)
                .set(ConfigOptions.MEMORY_COMPONENT_SIZE, (writeMb / 8) << 20)
                .set(ConfigOptions.MAX_LOG_SIZE, (logMb * 4) << 20)
                .set(ConfigOptions.LOG_SEGMENT_SIZE, Long.parseLong(o.getOrDefault("segment-mb", "8")) << 20)
                .set(ConfigOptions.DURABILITY, Durability.ASYNC)
                .set(ConfigOptions.TUNER, false)
                .set(ConfigOptions.HTTP_ENABLED, false)
                .set(ConfigOptions.JMX_ENABLED, false)
                .set(ConfigOptions.LOG_COMPRESSION, lz4)
                .build();
        Path dir = root.resolve("recovery-" + variant + "-" + logMb);
        deleteTree(dir);
        Files.createDirectories(dir.getParent());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", "recovery");
        out.put("variant", variant);
        out.put("log-mb", logMb);
        out.put("cold", cold);
        List<Path> images = new ArrayList<>();
        try (StorageEngine engine = StorageEngine.open(dir, config)) {
            Dataset ds = engine.createDataset(spec());
            SplittableRandom r = new SplittableRandom(4);
            long id = 0;
            while (engine.statistics().logSizeBytes() < (logMb << 20)) {
                for (int i = 0; i < 1000; i++) {
                    ds.upsert(Tuple.of(id++, text(r, recordBytes)));
                }
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            // ASYNC: every record is synced within the sync interval (10 ms); the packer compresses sealed segments.
            sleep(200);
            while (lz4 && engine.statistics().log().segmentsCreated() > engine.logPackerStatistics().compressedSegments()
                    && System.nanoTime() < deadline) {
                sleep(50);
            }
            long flushed = 0;
            for (TreeStatisticsSnapshot t : engine.statistics().trees().values()) {
                flushed += t.flushes();
            }
            out.put("flushes-before-crash", flushed);
            out.put("records", id);
            out.put("log-span-bytes", engine.statistics().logSizeBytes());
            out.put("log-disk-bytes", engine.logDiskBytes());
            out.put("packer", engine.logPackerStatistics());
            // One more image than timed opens: the first open is untimed, so the timed ones do not
            // include class loading and the JIT's first compilations of the replay path.
            for (int i = 0; i <= repeat; i++) {
                Path image = root.resolve("recovery-image-" + variant + "-" + logMb + "-" + i);
                deleteTree(image);
                copyTree(dir, image);
                images.add(image);
            }
        }
        deleteTree(dir);
        List<Double> seconds = new ArrayList<>();
        for (Path image : images) {
            if (cold) {
                dropPageCache();
            }
            long start = System.nanoTime();
            StorageEngine recovered = StorageEngine.open(image, config);
            seconds.add((System.nanoTime() - start) / 1e9);
            recovered.close();
            deleteTree(image);
        }
        out.put("first-open-seconds", seconds.remove(0));
        out.put("open-seconds", seconds);
        out.put("open-seconds-median", seconds.stream().sorted().toList().get(seconds.size() / 2));
        return out;
    }

    // ------------------------------------------------------------------ helpers

    /** Writes every dirty page back, then asks the kernel to drop clean page-cache pages, dentries and inodes. */
    static void dropPageCache() throws IOException, InterruptedException {
        Path control = Path.of("/proc/sys/vm/drop_caches");
        if (!Files.isWritable(control)) {
            throw new IllegalStateException("--cold true needs write access to " + control + " (run as root)");
        }
        syncFileSystems();
        Files.writeString(control, "3");
    }

    interface Worker {
        void run(int thread) throws Exception;
    }

    static void parallel(int threads, Worker w) throws Exception {
        List<Thread> ts = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                try {
                    w.run(id);
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            }, "client-" + t);
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join();
        }
        if (!errors.isEmpty()) {
            throw new IllegalStateException("a client failed", errors.get(0));
        }
    }

    /** Bytes of every file in {@code dir}, of its {@code .packing} temporaries, and the file count. */
    static long[] logFiles(Path dir) {
        long[] out = new long[3];
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> {
                try {
                    long n = Files.size(p);
                    out[0] += n;
                    if (p.getFileName().toString().endsWith(".packing")) {
                        out[1] += n;
                    }
                    out[2]++;
                } catch (IOException e) {
                    // deleted meanwhile
                }
            });
        } catch (IOException e) {
            // no log directory yet
        }
        return out;
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted(Comparator.reverseOrder()).forEach(x -> {
                try {
                    Files.deleteIfExists(x);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
