package dev.breakwater.bench.layout;

import dev.breakwater.common.io.MemFileSystem;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.lsm.version.Manifest;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionBuilder;
import dev.breakwater.lsm.version.VersionEdit;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Open cost of a tree's manifest against the length of its history, at constant live state: a
 * version of {@code --tables} live tables (default 3,307, the count of issue 13's ledger) in one L0
 * group, then {@code H} edits that each replace one table by another (the live state stays the
 * same, the history grows), for each {@code H} of {@code --histories} (default 0,1000,4000,16000).
 * Reported per {@code H}, as tab-separated lines: the edits {@link Manifest#read} replays, the
 * manifest's bytes, and the time of {@code Manifest.read} (median of 3). Everything is in an
 * in-memory file system, so this is replay (decode and apply), not disk time. Uses only the public
 * manifest API, so the same source runs against older builds
 * ({@code java -cp OLD.jar ManifestHistoryDriver.java}).
 *
 * <p>Thread safety: a command-line tool; single-threaded.
 */
public final class ManifestHistoryDriver {

    private ManifestHistoryDriver() {
    }

    private static TableMeta table(long number, long key) {
        byte[] k = ByteBuffer.allocate(8).putLong(key).array();
        return new TableMeta(number, 49152, 15, k, k, number, number);
    }

    public static void main(String[] args) throws Exception {
        int tables = 3307;
        String histories = "0,1000,4000,16000";
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (args[i].equals("--tables")) {
                tables = Integer.parseInt(args[i + 1]);
            } else if (args[i].equals("--histories")) {
                histories = args[i + 1];
            } else {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.println("history_edits\tedits_replayed\tmanifest_bytes\tread_ms_median");
        for (String h : histories.split(",")) {
            run(tables, Integer.parseInt(h));
        }
    }

    private static void run(int tables, int history) throws Exception {
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/tree");
        Manifest.Opened o = Manifest.open(fs, dir, new IoStatistics(), 4L << 20);
        Version v = o.version();
        long[] keyOf = new long[tables];
        long file = 1;
        try (Manifest m = o.manifest()) {
            VersionEdit snapshot = new VersionEdit().newRun(0, 1, true);
            for (int t = 0; t < tables; t++) {
                keyOf[t] = t * 2L;
                snapshot.addTable(0, 1, table(file++, keyOf[t]));
            }
            m.append(snapshot, v);
            v = new VersionBuilder(v).apply(snapshot).build();
            long[] numberOf = new long[tables];
            for (int t = 0; t < tables; t++) {
                numberOf[t] = t + 1;
            }
            for (int e = 0; e < history; e++) {
                int t = e % tables;
                VersionEdit edit = new VersionEdit().removeTable(0, 1, table(numberOf[t], keyOf[t]))
                        .addTable(0, 1, table(file, keyOf[t])).setLastFlushedLsn(e);
                numberOf[t] = file++;
                m.append(edit, v);
                v = new VersionBuilder(v).apply(edit).build();
            }
        }
        double[] ms = new double[3];
        Manifest.Replayed r = null;
        for (int i = 0; i < ms.length; i++) {
            long t0 = System.nanoTime();
            r = Manifest.read(fs, dir);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        if (r.version().allTables().size() != tables) {
            throw new IllegalStateException("replayed " + r.version().allTables().size() + " tables, expected " + tables);
        }
        System.out.printf("%d\t%d\t%d\t%.1f%n", history, r.edits(), r.fileBytes(), ms[1]);
    }
}
