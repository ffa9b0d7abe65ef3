package dev.breakwater.bench.ycsb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.htrace.core.HTraceConfiguration;
import org.apache.htrace.core.Tracer;
import site.ycsb.ClientThread;
import site.ycsb.DB;
import site.ycsb.DBFactory;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.TextMeasurementsExporter;

/**
 * Runs one phase (load or transactions) of the official YCSB 0.17.0 client in this JVM, with the
 * client's own classes: {@code Workload} (CoreWorkload by default), {@code DBFactory} (which wraps
 * the binding in the measuring {@code DBWrapper}), {@code ClientThread} and {@code Measurements},
 * wired exactly as {@code site.ycsb.Client.main} wires them but without its {@code System.exit}
 * and without closing {@code System.out}.
 *
 * <p>What it measures is what the client measures: run time from starting the client threads to
 * joining them, which includes each thread's {@code DB.init()} and {@code DB.cleanup()} (so the
 * bindings' settling flush and merge work at cleanup counts in the phase, as in the client), and the
 * per-operation latencies and return codes of {@code DBWrapper}, exported with the client's text
 * exporter into {@link Result#exported}.
 */
public final class YcsbPhase {

    private YcsbPhase() {
    }

    /**
     * The outcome of a phase.
     *
     * @param operations operations the client threads did
     * @param millis     client run time
     * @param exported   the client's text export ({@code [OP], metric, value} lines)
     * @param metrics    the same, parsed: op name → metric → value
     */
    public record Result(long operations, long millis, String exported, Map<String, Map<String, String>> metrics) {

        public double opsPerSecond() {
            return millis == 0 ? 0 : operations * 1000.0 / millis;
        }

        /** Count of {@code Return=<status>} for {@code op} (e.g. "UPDATE", "OK"), 0 when absent. */
        public long returns(String op, String status) {
            Map<String, String> m = metrics.get(op);
            String v = m == null ? null : m.get("Return=" + status);
            return v == null ? 0 : Long.parseLong(v.trim());
        }

        /** Every return status other than OK, as "OP Return=STATUS: count". */
        public List<String> nonOkReturns() {
            List<String> out = new ArrayList<>();
            for (var e : metrics.entrySet()) {
                for (var m : e.getValue().entrySet()) {
                    if (m.getKey().startsWith("Return=") && !m.getKey().equals("Return=OK")) {
                        out.add(e.getKey() + " " + m.getKey() + ": " + m.getValue().trim());
                    }
                }
            }
            return out;
        }

        /** A latency metric, e.g. ("UPDATE", "99thPercentileLatency(us)"), or NaN. */
        public double metric(String op, String name) {
            Map<String, String> m = metrics.get(op);
            String v = m == null ? null : m.get(name);
            return v == null ? Double.NaN : Double.parseDouble(v.trim());
        }
    }

    /** Loads a workload file shipped under {@code workloads/} on the class path (e.g. "workloada"). */
    public static Properties workload(String name) throws IOException {
        Properties p = new Properties();
        try (InputStream in = YcsbPhase.class.getResourceAsStream("/workloads/" + name)) {
            if (in == null) {
                throw new IOException("no workload file workloads/" + name + " on the class path");
            }
            p.load(in);
        }
        return p;
    }

    /**
     * Runs one phase with {@code props} (workload properties plus {@code db}, {@code threadcount},
     * {@code recordcount}, {@code operationcount}, binding properties). {@code maxSeconds > 0} asks
     * the workload to stop after that long, as the client's {@code maxexecutiontime} does.
     * {@code progress} gets one line a second (null: none).
     */
    public static Result run(Properties props, boolean transactions, double maxSeconds, PrintStream progress)
            throws Exception {
        resetMeasurements();
        Measurements.setProperties(props);
        Workload workload = (Workload) Class.forName(props.getProperty("workload", "site.ycsb.workloads.CoreWorkload"))
                .getDeclaredConstructor().newInstance();
        workload.init(props);
        Tracer tracer = new Tracer.Builder("YCSB " + workload.getClass().getSimpleName())
                .conf(HTraceConfiguration.fromMap(new HashMap<>())).build();
        int threadCount = Integer.parseInt(props.getProperty("threadcount", "1"));
        long opcount;
        if (transactions) {
            opcount = Long.parseLong(props.getProperty("operationcount", "0"));
        } else if (props.containsKey("insertcount")) {
            opcount = Long.parseLong(props.getProperty("insertcount"));
        } else {
            opcount = Long.parseLong(props.getProperty("recordcount", "0"));
        }
        String dbName = props.getProperty("db", BreakwaterDB.class.getName());
        CountDownLatch latch = new CountDownLatch(threadCount);
        List<ClientThread> clients = new ArrayList<>();
        for (int i = 0; i < threadCount; i++) {
            DB db = DBFactory.newDB(dbName, props, tracer);
            if (db == null) {
                throw new IllegalArgumentException("unknown YCSB db " + dbName);
            }
            int threadOps = (int) (opcount / threadCount + (i < opcount % threadCount ? 1 : 0));
            ClientThread c = new ClientThread(db, transactions, workload, props, threadOps, -1, latch);
            c.setThreadId(i);
            c.setThreadCount(threadCount);
            clients.add(c);
        }
        List<Thread> threads = new ArrayList<>();
        for (ClientThread c : clients) {
            threads.add(new Thread(c, "ycsb-client-" + threads.size()));
        }
        long start = System.currentTimeMillis();
        threads.forEach(Thread::start);
        long deadline = maxSeconds > 0 ? start + (long) (maxSeconds * 1000) : Long.MAX_VALUE;
        long lastOps = 0;
        long lastT = start;
        boolean stopRequested = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
                t.join(200);
                long now = System.currentTimeMillis();
                if (!stopRequested && now >= deadline) {
                    workload.requestStop();
                    stopRequested = true;
                }
                if (progress != null && now - lastT >= 1000) {
                    long ops = opsDone(clients);
                    double rate = (ops - lastOps) * 1000.0 / (now - lastT);
                    String eta = maxSeconds > 0 ? String.format("%.0fs", Math.max(0, (deadline - now) / 1000.0))
                            : rate > 0 ? String.format("%.0fs", (opcount - ops) / rate) : "?";
                    progress.printf("[%s %s] %5.0fs %,10.0f ops/s %,12d ops  ETA %s%n", transactions ? "run" : "load",
                            dbName.substring(dbName.lastIndexOf('.') + 1), (now - start) / 1000.0, rate, ops, eta);
                    lastOps = ops;
                    lastT = now;
                }
            }
        }
        long end = System.currentTimeMillis();
        workload.cleanup();
        long ops = opsDone(clients);
        long millis = Math.max(1, end - start);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        TextMeasurementsExporter exporter = new TextMeasurementsExporter(buf);
        exporter.write("OVERALL", "RunTime(ms)", millis);
        exporter.write("OVERALL", "Throughput(ops/sec)", ops * 1000.0 / millis);
        Measurements.getMeasurements().exportMeasurements(exporter);
        exporter.close();
        String text = buf.toString(StandardCharsets.UTF_8);
        return new Result(ops, millis, text, parse(text));
    }

    private static long opsDone(List<ClientThread> clients) {
        long s = 0;
        for (ClientThread c : clients) {
            s += c.getOpsDone();
        }
        return s;
    }

    static Map<String, Map<String, String>> parse(String exported) {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        for (String line : exported.split("\n")) {
            if (!line.startsWith("[")) {
                continue;
            }
            int close = line.indexOf(']');
            String[] rest = line.substring(close + 1).split(",", 3);
            if (rest.length < 3) {
                continue;
            }
            m.computeIfAbsent(line.substring(1, close), k -> new LinkedHashMap<>()).put(rest[1].trim(), rest[2].trim());
        }
        return m;
    }

    /** Measurements is a per-JVM singleton created on first use; drop it so each phase counts afresh. */
    private static void resetMeasurements() throws ReflectiveOperationException {
        Field f = Measurements.class.getDeclaredField("singleton");
        f.setAccessible(true);
        f.set(null, null);
    }
}
