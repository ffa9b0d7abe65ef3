package dev.breakwater.bench.garnering;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.breakwater.bench.CliOptions;
import dev.breakwater.buffercache.BufferCache;
import dev.breakwater.buffercache.BufferCacheOptions;
import dev.breakwater.common.io.RealFileSystem;
import dev.breakwater.common.stats.IoPurpose;
import dev.breakwater.common.stats.IoStatistics;
import dev.breakwater.common.stats.IoStatisticsSnapshot;
import dev.breakwater.lsm.EntryCursor;
import dev.breakwater.lsm.ValueHolder;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.tree.LsmTree;
import dev.breakwater.lsm.tree.LsmTreeOptions;
import dev.breakwater.lsm.tree.TreeResources;
import dev.breakwater.lsm.tree.TreeStatisticsSnapshot;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Garnering vs leveling on one LSM tree with direct I/O (paper 004, Figures 2 and 3 scaled down):
 * loads {@code --keys} random 16-byte keys with {@code --value-bytes} values, flushes and waits for
 * merges, then measures point reads of present keys, zero-result lookups (false positives per
 * lookup, pages read), short range reads (seek + 10 entries) and long range reads (seek + 100).
 * Reports as one JSON object: load rate and mean write latency, levels (bytes and tables per level,
 * L0's groups, and the runs a range read seeks into: L0's groups plus the non-empty disk levels), write amplification
 * (FLUSH + MERGE bytes written / bytes ingested), space amplification (disk bytes / bytes ingested,
 * every key distinct), and per read kind the rate and pages read per operation.
 *
 * <p>With {@code --key-space K} (below {@code --keys}) the puts are updates: put {@code i} writes key
 * {@code mix(i) mod K}, so keys are overwritten in random order, about {@code keys/K} times each.
 * Space amplification is then disk bytes over the live data (distinct keys written times the entry
 * size), measured when the load ends (before the final flush and settle: obsolete versions still in
 * the upper levels) and after the settle; reads go to keys below {@code K}.
 *
 * <p>Options: {@code --policy LEVELING|GARNERING}, {@code --scale c}, {@code --size-ratio T},
 * {@code --bloom UNIFORM|MONKEY}, {@code --bits b}, {@code --keys}, {@code --value-bytes},
 * {@code --key-space K}, {@code --memtable SIZE} (the tree's M), {@code --cache SIZE}, {@code --reads N}, {@code --dir},
 * {@code --out FILE}, {@code --label}.
 */
public final class GarneringDriver {

    static final int PAGE = 4096;
    static final int KEY_BYTES = 16;

    private GarneringDriver() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = CliOptions.parse(args);
        String policy = a.getOrDefault("policy", "LEVELING");
        double scale = Double.parseDouble(a.getOrDefault("scale", "0.8"));
        int t = Integer.parseInt(a.getOrDefault("size-ratio", "4"));
        String bloom = a.getOrDefault("bloom", "UNIFORM");
        double bits = Double.parseDouble(a.getOrDefault("bits", "10"));
        long keys = Long.parseLong(a.getOrDefault("keys", "600000"));
        long keySpace = Long.parseLong(a.getOrDefault("key-space", Long.toString(keys)));
        if (keySpace < 1 || keySpace > keys || keySpace > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--key-space must be in 1.." + Math.min(keys, Integer.MAX_VALUE) + ", got " + keySpace);
        }
        boolean updates = keySpace < keys;
        int valueBytes = Integer.parseInt(a.getOrDefault("value-bytes", "100"));
        long memtable = size(a.getOrDefault("memtable", "1m"));
        long cache = size(a.getOrDefault("cache", "8m"));
        int reads = Integer.parseInt(a.getOrDefault("reads", "20000"));
        Path dir = Path.of(a.getOrDefault("dir", "/tmp/garnering/tree"));
        String out = a.get("out");

        LsmTreeOptions o = LsmTreeOptions.defaults(PAGE, memtable).withSizeRatio(t).withTargetTableBytes(Math.max(memtable, 256 * 1024))
                .withDirectIo(true).withBloomBits(bits)
                .withBloomAllocation(LsmTreeOptions.BloomAllocation.valueOf(bloom));
        o = policy.equals("GARNERING") ? o.withGarnering(scale) : o.withPolicy(LsmTreeOptions.Policy.valueOf(policy));
        deleteRecursively(dir);
        Files.createDirectories(dir);
        IoStatistics io = new IoStatistics();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("label", a.getOrDefault("label", policy));
        r.put("policy", policy);
        r.put("scale", policy.equals("GARNERING") ? scale : null);
        r.put("sizeRatio", t);
        r.put("bloom", bloom);
        r.put("bitsPerKey", bits);
        r.put("keys", keys);
        r.put("keySpace", keySpace);
        r.put("valueBytes", valueBytes);
        r.put("memtableBytes", memtable);
        r.put("cacheBytes", cache);
        try (BufferCache bc = new BufferCache(BufferCacheOptions.of(PAGE, cache), io);
             WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(memtable * 4).withName("garnering-bench"))) {
            TreeResources res = TreeResources.withPools(RealFileSystem.create(), bc, pool, io, 1, 1);
            try (LsmTree tree = LsmTree.open("bench", dir, o, res)) {
                byte[] key = new byte[KEY_BYTES];
                byte[] value = new byte[valueBytes];
                java.util.BitSet written = new java.util.BitSet();
                long start = System.nanoTime();
                for (long i = 0; i < keys; i++) {
                    long k = updates ? Math.floorMod(mix(i ^ 0x5DEECE66DL), keySpace) : i;
                    fill(1, k, key);
                    value[0] = (byte) i;
                    tree.put(key, value, 0);
                    if (updates) {
                        written.set((int) k);
                    }
                }
                long loaded = System.nanoTime();
                long live = (updates ? written.cardinality() : keys) * (long) (KEY_BYTES + valueBytes);
                r.put("liveKeys", updates ? written.cardinality() : keys);
                r.put("spaceAmplificationAtLoadEnd", (double) sum(tree.statistics().levelBytes()) / live);
                tree.flush();
                tree.awaitMerges();
                long settled = System.nanoTime();
                long ingested = keys * (KEY_BYTES + valueBytes);
                IoStatisticsSnapshot w = io.snapshot();
                r.put("loadOpsPerSec", keys / ((loaded - start) / 1e9));
                r.put("loadAndSettleOpsPerSec", keys / ((settled - start) / 1e9));
                r.put("meanWriteLatencyMicros", (loaded - start) / 1e3 / keys);
                r.put("writeAmplification", (double) (w.bytesWritten(IoPurpose.FLUSH) + w.bytesWritten(IoPurpose.MERGE)) / ingested);
                TreeStatisticsSnapshot s = tree.statistics();
                long disk = 0;
                int levels = 0;
                for (int i = 0; i < s.levelBytes().size(); i++) {
                    disk += s.levelBytes().get(i);
                    if (i > 0 && s.levelBytes().get(i) > 0) {
                        levels++;
                    }
                }
                r.put("levelBytes", s.levelBytes());
                r.put("levelTables", s.levelTables());
                r.put("l0Groups", s.l0Groups());
                r.put("diskLevels", levels);
                // What a range read seeks into: every L0 group and every non-empty disk level is one run.
                r.put("runs", s.l0Groups() + levels);
                r.put("levelCount", s.levelBytes().size() - 1);
                r.put("spaceAmplification", (double) disk / live);
                long seed = 12345;
                r.put("runCoverage", runCoverage(tree.version(), key, reads / 2, i -> Math.floorMod(mix(seed * 3 + i), keySpace)));
                ValueHolder vh = new ValueHolder();
                // Point reads of present keys.
                measure(r, "pointRead", reads, io, () -> { }, i -> {
                    fill(1, Math.floorMod(mix(seed + i), keySpace), key);
                    tree.get(key, vh);
                });
                long fp0 = tree.statistics().bloomFalsePositives();
                measure(r, "zeroResultLookup", reads, io, () -> { }, i -> {
                    fill(2, i, key);
                    tree.get(key, vh);
                });
                r.put("zeroResultFalsePositivesPerLookup", (double) (tree.statistics().bloomFalsePositives() - fp0) / reads);
                measure(r, "shortRange", reads / 2, io, () -> { }, i -> scan(tree, key, Math.floorMod(mix(seed * 3 + i), keySpace), 10));
                measure(r, "longRange", reads / 8, io, () -> { }, i -> scan(tree, key, Math.floorMod(mix(seed * 7 + i), keySpace), 100));
            }
            res.shutdownPools();
        }
        deleteRecursively(dir);
        ObjectMapper m = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        String json = m.writeValueAsString(r);
        if (out != null) {
            Files.writeString(Path.of(out), json);
        }
        System.out.println(json);
    }

    /**
     * For each non-empty run (L0's groups first, then the disk levels top down): its level, tables,
     * bytes, and the share of the short range reads' start keys that fall inside one of its tables'
     * key ranges. A seek that falls in a gap between two tables of a run (partial merges leave gaps in
     * the upper levels) reads the first leaf of the next table, which every such seek shares, so it is
     * cached after the first; a covered seek reads a leaf of its own. The sum of the shares is the number
     * of runs a short range read pays a leaf for (without the leaf boundaries its entries cross).
     */
    static List<Map<String, Object>> runCoverage(Version v, byte[] key, int n, java.util.function.LongUnaryOperator keyIndex) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int level = 0; level < v.levelCount(); level++) {
            for (Run run : v.level(level)) {
                if (run.isEmpty()) {
                    continue;
                }
                int covered = 0;
                for (long i = 0; i < n; i++) {
                    fill(1, keyIndex.applyAsLong(i), key);
                    if (covers(run.tables(), key)) {
                        covered++;
                    }
                }
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("level", level);
                m.put("tables", run.tables().size());
                m.put("bytes", run.tables().stream().mapToLong(TableMeta::sizeBytes).sum());
                m.put("coverage", (double) covered / n);
                out.add(m);
            }
        }
        return out;
    }

    /** True if {@code key} lies within the key range of one of {@code tables} (disjoint, in key order). */
    static boolean covers(List<TableMeta> tables, byte[] key) {
        int lo = 0;
        int hi = tables.size(); // first table whose largest key is >= key
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(tables.get(mid).largest(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < tables.size() && Arrays.compareUnsigned(tables.get(lo).smallest(), key) <= 0;
    }

    private static long sum(List<Long> xs) {
        long s = 0;
        for (long x : xs) {
            s += x;
        }
        return s;
    }

    interface Op {
        void run(long i) throws IOException;
    }

    private static void measure(Map<String, Object> r, String name, int n, IoStatistics io, Runnable warm, Op op) throws IOException {
        warm.run();
        IoStatisticsSnapshot before = io.snapshot();
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            op.run(i);
        }
        long t1 = System.nanoTime();
        IoStatisticsSnapshot d = io.snapshot().minus(before);
        r.put(name + "OpsPerSec", n / ((t1 - t0) / 1e9));
        r.put(name + "MeanMicros", (t1 - t0) / 1e3 / n);
        r.put(name + "PagesReadPerOp", (double) d.totalPagesRead() / n);
    }

    private static void scan(LsmTree tree, byte[] key, long index, int entries) throws IOException {
        fill(1, index, key);
        try (EntryCursor c = tree.scan(key, null)) {
            for (int k = 0; k < entries && c.next(); k++) {
                // reading the entry is the work
            }
        }
    }

    /** A byte count with an optional k, m or g suffix (powers of 1024). */
    static long size(String s) {
        String v = s.trim().toLowerCase(java.util.Locale.ROOT);
        long unit = v.endsWith("k") ? 1L << 10 : v.endsWith("m") ? 1L << 20 : v.endsWith("g") ? 1L << 30 : 1;
        return Long.parseLong(unit == 1 ? v : v.substring(0, v.length() - 1)) * unit;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Key {@code index} of stream {@code seed}: 16 pseudo-random bytes, big-endian. */
    static void fill(long seed, long index, byte[] dst) {
        long a = mix(seed * 0x9E3779B97F4A7C15L + index * 0xD1B54A32D192ED03L);
        long b = mix(a + 0x9E3779B97F4A7C15L);
        for (int i = 7; i >= 0; i--) {
            dst[i] = (byte) a;
            dst[8 + i] = (byte) b;
            a >>>= 8;
            b >>>= 8;
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(all::add);
        }
        for (Path p : all) {
            Files.delete(p);
        }
    }
}
