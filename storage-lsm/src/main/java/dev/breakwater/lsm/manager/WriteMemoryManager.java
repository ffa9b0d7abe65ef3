package dev.breakwater.lsm.manager;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * The global write-memory manager (paper 000, sections 3–4): one pool of off-heap pages for every
 * memory component of every tree, no per-tree or per-dataset limit (except under the STATIC
 * baseline), and a flush policy that decides which tree gives memory back when usage passes the
 * flush threshold.
 *
 * <ul>
 *   <li><b>MAX_MEMORY</b>: the tree holding the most memory.</li>
 *   <li><b>MIN_LSN</b>: the tree holding the oldest log LSN in memory.</li>
 *   <li><b>OPTIMAL</b>: the tree whose share of write memory {@code a_i} most exceeds its share of
 *       the writes {@code r_i / Σ r_j} measured over one maximum log length (section 4.2: write
 *       memory proportional to write rate minimizes write cost), among the trees that hold at least
 *       their {@linkplain ManagedTree#smallestUsefulFlushBytes smallest useful flush} (all trees if
 *       none does). Equation 1, which the rate rule comes from, prices memory by the disk levels it
 *       saves; a tree whose flushes are small against the L0 batch its merge into L1 waits for pays
 *       per flushed byte for L0 merges forced by the group count instead (intra-L0 merges that rewrite
 *       L0 every few flushes), a cost that grows as the flush shrinks. So a tree is left to grow to
 *       that size (or to the log's flush) while another tree can give memory (paper 000 Figure 10 at
 *       16 MiB: the eight cold trees flushed 430–540 KB against an 8 MB batch;
 *       docs/benchmarks-memory.md, "Session 13").</li>
 *   <li><b>STATIC</b> scheme (B+-static): at most D datasets hold memory; a write to a further
 *       dataset makes the least recently written one flush everything; a dataset reaching 1/D of
 *       write memory flushes all its trees together.</li>
 * </ul>
 * Log-triggered flushes are not the manager's: they always take the minimum LSN (the engine asks
 * the trees holding it). Writers that find the pool exhausted wait inside their tree (a counted
 * stall) until flushes free memory; the pool never exceeds its budget.
 *
 * <p>The manager is driven by {@link #tick}, called every few milliseconds by the engine's
 * monitor thread (and immediately when the pool crosses its threshold).
 *
 * <p>Thread safety: {@link #register}, {@link #unregister}, {@link #noteWrite} and {@link #snapshot}
 * are safe from any thread; {@link #tick} and {@link #resize} are called by one thread at a time.
 */
public final class WriteMemoryManager {

    /** The smallest amount one memory-triggered flush request asks a tree to free. */
    static final long MIN_FLUSH_SLICE = 64 * 1024;

    private final WriteMemoryPool pool;
    private final WriteMemoryOptions options;
    private final LongSupplier logPosition;
    private final List<ManagedTree> trees = new CopyOnWriteArrayList<>();
    private final Map<ManagedTree, String> groupOf = new ConcurrentHashMap<>();
    private final Map<ManagedTree, Double> averageMemory = new ConcurrentHashMap<>();
    /** The slow, write-clocked share each tree's levels are sized from ({@link LevelSizingShare}); touched only by {@link #tick}. */
    private final Map<ManagedTree, LevelSizingShare> levelShares = new ConcurrentHashMap<>();
    private final WriteRates rates;
    /** STATIC: active datasets, least recently written first. Guarded by itself. */
    private final LinkedHashMap<String, Boolean> activeGroups = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, Boolean> activeFast = new ConcurrentHashMap<>();
    private final UtilizationHistory history = new UtilizationHistory(4096);

    /**
     * @param logPosition the log's end LSN, the clock write rates are measured against
     */
    public WriteMemoryManager(WriteMemoryPool pool, WriteMemoryOptions options, LongSupplier logPosition) {
        this.pool = pool;
        this.options = options;
        this.logPosition = logPosition;
        this.rates = new WriteRates(options.logWindowBytes());
    }

    public WriteMemoryOptions options() {
        return options;
    }

    /** Adds a tree; {@code group} names its dataset (the STATIC scheme flushes a dataset's trees together). */
    public void register(ManagedTree tree, String group) {
        trees.add(tree);
        groupOf.put(tree, group);
        tree.setMemoryPressureHandler(this::relievePressure);
        tree.setRoomHandler(this::makeRoom);
        // Until the first tick averages its memory, size the tree's levels for what it holds now
        // (its own default may be its memory-table limit, which can be unbounded).
        tree.setWriteMemoryShare(Math.max(options.minShare(pool.capacityBytes()), tree.memoryBytes()));
        tree.setLevelCountSettled(false); // that share is a guess: no level changes until it is an average of writes
        // Writers slow down halfway between the flush threshold and a full pool: flushes get time to
        // catch up before writers block.
        tree.setWriteSlowdownFrom((1 + options.flushThreshold()) / 2);
        tree.setMemoryFlushThreshold(options.flushThreshold());
    }

    public void unregister(ManagedTree tree) {
        trees.remove(tree);
        groupOf.remove(tree);
        averageMemory.remove(tree);
        levelShares.remove(tree);
    }

    /**
     * Called when a transaction writes to dataset {@code group}. Under STATIC, activates it, making
     * the least recently written active dataset flush everything if D are already active. Lock-free
     * when the dataset is already active.
     */
    public void noteWrite(String group) {
        if (options.scheme() != WriteMemoryScheme.STATIC) {
            return;
        }
        String evicted = null;
        synchronized (activeGroups) {
            if (activeGroups.put(group, Boolean.TRUE) == null) {
                activeFast.put(group, Boolean.TRUE);
                if (activeGroups.size() > options.staticDatasets()) {
                    evicted = activeGroups.keySet().iterator().next();
                    activeGroups.remove(evicted);
                    activeFast.remove(evicted);
                }
            }
        }
        if (evicted != null) {
            flushGroup(evicted, FlushCause.MEMORY);
        }
    }

    /**
     * One round of the policy: sample rates, update shares, flush if memory is short. Two averages
     * of each tree's memory: a fast one (weight 0.01 per tick, about half a second at 5 ms ticks)
     * that the snapshot reports, and from it the slow {@link LevelSizingShare} (10 s over the time
     * the tree is written) that the tree sizes its disk levels from, at least the floor
     * {@link WriteMemoryOptions#minShare} of the current capacity.
     */
    public void tick() {
        tick(System.nanoTime());
    }

    /** {@link #tick()} at a given monotonic time (tests drive the level-sizing share's clock). */
    void tick(long now) {
        rates.sample(logPosition.getAsLong(), trees);
        long floor = options.minShare(pool.capacityBytes());
        for (ManagedTree t : trees) {
            double avg = averageMemory.getOrDefault(t, (double) t.memoryBytes());
            avg += 0.01 * (t.memoryBytes() - avg);
            averageMemory.put(t, avg);
            LevelSizingShare levelShare = levelShares.computeIfAbsent(t, k -> new LevelSizingShare(options.levelShareTimeConstantNanos()));
            t.setWriteMemoryShare(Math.max(floor, levelShare.update(avg, t.entriesWritten(), now)));
            t.setLevelCountSettled(levelShare.settled());
        }
        history.record(now, pool.usedBytes(), pool.capacityBytes());
        if (options.scheme() == WriteMemoryScheme.STATIC) {
            long budget = pool.capacityBytes() / options.staticDatasets();
            Map<String, Long> perGroup = new LinkedHashMap<>();
            for (ManagedTree t : trees) {
                // Memory already being flushed does not count: while a slow flush drains a full
                // dataset, asking again on every tick would seal one tiny component after another.
                perGroup.merge(groupOf.get(t), Math.max(0, t.memoryBytes() - t.flushingBytes()), Long::sum);
            }
            for (var e : perGroup.entrySet()) {
                if (e.getValue() >= budget * options.flushThreshold()) {
                    flushGroup(e.getKey(), FlushCause.MEMORY);
                }
            }
        }
        if (pool.usedBytes() >= options.flushThreshold() * pool.capacityBytes()) {
            relievePressure();
        }
    }

    /**
     * Asks trees, in the flush policy's order, to flush until the memory they are expected to free
     * brings usage below the threshold. The excess is handed out in slices (an eighth of it, at
     * least {@link #MIN_FLUSH_SLICE}); before each slice the policy picks again from what the trees
     * will hold once the flushes already asked for are done, so the optimal policy spreads the work
     * over the trees whose share most exceeds their write rate, and max-memory takes from the largest
     * until it no longer is. Also what a writer facing an empty pool calls.
     */
    public void relievePressure() {
        relieve(0, options.flushThreshold());
    }

    /**
     * Asks trees, in the flush policy's order, to free enough that {@code bytes} more fit in the pool
     * below the flush threshold, as {@link #relievePressure} does for usage itself: what a partitioned
     * tree's seal calls when the pool has no room for its compact copy. The policy may pick the asking
     * tree itself. (Asking only for what does not fit in the whole pool, since the copy is transient,
     * left too little room while writers kept filling it: on Figure 10 at 64 MiB most seals then
     * still ran the pool dry and flushed their own tables; docs/benchmarks-memory.md, "Session 11".)
     */
    public void makeRoom(long bytes) {
        relieve(Math.max(0, bytes), options.flushThreshold());
    }

    /** Frees, by the flush policy, what usage plus {@code extra} has above {@code limit} of the capacity. */
    private synchronized void relieve(long extra, double limit) {
        long flushing = 0;
        for (ManagedTree t : trees) {
            flushing += t.flushingBytes();
        }
        // Memory already on its way out counts as freed: asking again would pile requests on the
        // same trees while the rest of the excess stays where it is.
        long excess = pool.usedBytes() + extra - flushing - (long) (limit * pool.capacityBytes());
        if (excess <= 0) {
            // Enough is on its way out. Asking for more would only make tiny flushes: a stalled
            // writer calls this every few hundred microseconds, and tiny flushes fill L0 until it
            // stops the very flushes that would free memory.
            return;
        }
        long slice = Math.max(MIN_FLUSH_SLICE, excess / 8);
        long freed = 0;
        for (int asked = 0; freed < excess && asked < 16 * trees.size(); asked++) {
            ManagedTree victim = pick();
            if (victim == null) {
                return;
            }
            long bytes = victim.requestFlush(FlushCause.MEMORY, Math.min(slice, excess - freed));
            if (bytes <= 0) {
                return; // the picked tree had nothing it could give after all; the next tick tries again
            }
            freed += bytes;
        }
    }

    /**
     * The tree the flush policy picks now, judged by the memory each tree will hold once the flushes
     * already asked for are done; null if no tree holds memory it could still flush.
     */
    ManagedTree pick() {
        Map<ManagedTree, Long> memory = new java.util.HashMap<>();
        List<ManagedTree> holding = new ArrayList<>();
        for (ManagedTree t : trees) {
            long m = Math.max(0, t.memoryBytes() - t.flushingBytes());
            memory.put(t, m);
            if (m > 0 && t.flushableBytes() > 0) {
                holding.add(t);
            }
        }
        if (holding.isEmpty()) {
            return null;
        }
        FlushPolicyKind policy = options.scheme() == WriteMemoryScheme.STATIC ? FlushPolicyKind.MAX_MEMORY : options.policy();
        return switch (policy) {
            case MAX_MEMORY -> maxBy(holding, t -> (double) memory.get(t));
            case MIN_LSN -> maxBy(holding, t -> -(double) t.oldestMemoryLsn());
            case OPTIMAL -> pickOptimal(holding, memory);
        };
    }

    /**
     * The optimal policy's pick: the largest {@code a_i − r_i / Σ r_j} among the trees holding at
     * least their smallest useful flush, or among all holding trees if none does.
     */
    private ManagedTree pickOptimal(List<ManagedTree> holding, Map<ManagedTree, Long> memory) {
        Map<ManagedTree, Long> r = rates.rates(trees);
        double totalRate = 0;
        double totalMemory = 0;
        for (ManagedTree t : trees) {
            totalRate += r.get(t);
            totalMemory += memory.get(t);
        }
        if (totalRate == 0 || totalMemory == 0) {
            return maxBy(holding, t -> (double) memory.get(t));
        }
        double rate = totalRate;
        double total = totalMemory;
        List<ManagedTree> worthFlushing = new ArrayList<>();
        for (ManagedTree t : holding) {
            if (memory.get(t) >= t.smallestUsefulFlushBytes()) {
                worthFlushing.add(t);
            }
        }
        return maxBy(worthFlushing.isEmpty() ? holding : worthFlushing, t -> memory.get(t) / total - r.get(t) / rate);
    }

    private interface Score {
        double of(ManagedTree t);
    }

    private static ManagedTree maxBy(List<ManagedTree> candidates, Score score) {
        ManagedTree best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (ManagedTree t : candidates) {
            double s = score.of(t);
            if (s > bestScore) {
                bestScore = s;
                best = t;
            }
        }
        return best;
    }

    private void flushGroup(String group, FlushCause cause) {
        for (ManagedTree t : trees) {
            if (group.equals(groupOf.get(t))) {
                t.requestFlush(cause);
            }
        }
    }

    /**
     * Changes the write-memory budget while running (the memory tuner calls this). Growing takes
     * effect at once. Shrinking lowers the budget at once (writers that need a page wait from then
     * on), then flushes trees, by the flush policy, until usage is at or below the flush threshold of
     * the new capacity, or until {@code maxWaitMillis} passed.
     *
     * <p>Guarantee on return: the budget is the new capacity; usage is at most
     * {@code flushThreshold × capacity} unless the wait ran out first (then the caller sees
     * {@link WriteMemoryPool#usedBytes()} above it, and the flushes already asked for go on). The
     * pool may still reserve more off-heap memory than the capacity until the components using the
     * old arenas free their pages.
     *
     * @return the capacity in effect: {@code capacityBytes} rounded down to whole pages (not the
     *         bytes the pool reserves)
     */
    public long resize(long capacityBytes, long maxWaitMillis) {
        pool.setCapacity(capacityBytes);
        long capacity = capacityBytes / pool.pageSize() * pool.pageSize();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        while (pool.usedBytes() > capacity * options.flushThreshold() && System.nanoTime() - deadline < 0) {
            relievePressure();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
        return capacity;
    }

    /** Each tree's share of write memory and of recent writes, and recent pool utilization. */
    public WriteMemorySnapshot snapshot() {
        Map<ManagedTree, Long> r = rates.rates(trees);
        long totalRate = 0;
        long totalMemory = 0;
        for (ManagedTree t : trees) {
            totalRate += r.get(t);
            totalMemory += t.memoryBytes();
        }
        Map<String, WriteMemorySnapshot.TreeShare> shares = new LinkedHashMap<>();
        for (ManagedTree t : trees) {
            shares.put(t.name(), new WriteMemorySnapshot.TreeShare(t.memoryBytes(),
                    totalMemory == 0 ? 0 : (double) t.memoryBytes() / totalMemory,
                    totalRate == 0 ? 0 : (double) r.get(t) / totalRate, averageMemory.getOrDefault(t, 0.0)));
        }
        return new WriteMemorySnapshot(pool.usedBytes(), pool.capacityBytes(), options.scheme(), options.policy(), shares,
                history.samples());
    }
}
