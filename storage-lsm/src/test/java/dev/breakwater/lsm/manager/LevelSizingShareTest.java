package dev.breakwater.lsm.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.breakwater.common.config.FlushPolicyKind;
import dev.breakwater.common.config.WriteMemoryScheme;
import dev.breakwater.lsm.memory.WriteMemoryPool;
import dev.breakwater.lsm.memory.WriteMemoryPoolOptions;
import dev.breakwater.lsm.merge.LevelingPicker;
import dev.breakwater.lsm.merge.MergeSettings;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import dev.breakwater.lsm.version.VersionBuilder;
import dev.breakwater.lsm.version.VersionEdit;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The share the manager hands a tree for sizing its disk levels, driven tick by tick on a simulated
 * clock, and what the leveling picker does with it (issue 12, sixth session: a share that swung
 * with every seal let stock's L1 merge into its whole L2 at a dip; issue 13: an idle tree's share
 * decayed and a level was added between phases).
 */
class LevelSizingShareTest {

    private static final long MB = 1_000_000;
    private static final long TICK_NANOS = 5_000_000;
    private static final long FLOOR = 4L << 20;

    private final WriteMemoryPool pool = new WriteMemoryPool(WriteMemoryPoolOptions.of(1 << 20).withPageSize(64 * 1024));
    private final WriteMemoryManager manager = new WriteMemoryManager(pool,
            new WriteMemoryOptions(WriteMemoryScheme.PARTITIONED, FlushPolicyKind.OPTIMAL, 0.95, 1, 1 << 30, FLOOR), () -> 0);
    private final LevelingPicker picker = new LevelingPicker();
    private long now = 1_000_000_000L;

    @AfterEach
    void close() {
        pool.close();
    }

    /** stock's shape in the TPC-C runs: L1 one table of {@code l1Bytes}, L2 one 115 MB table, L0 empty. */
    private static Version stockShape(long l1Bytes) {
        VersionEdit e = new VersionEdit();
        e.insertLevel(2);
        e.newRun(1, 1, false);
        e.addTable(1, 1, table(1, l1Bytes));
        e.newRun(2, 2, false);
        e.addTable(2, 2, table(2, 115 * MB));
        return new VersionBuilder(Version.empty()).apply(e).build();
    }

    private static TableMeta table(long file, long size) {
        return new TableMeta(file, size, size, "a".getBytes(StandardCharsets.UTF_8), "z".getBytes(StandardCharsets.UTF_8), file, file);
    }

    private static MergeSettings settings(long share) {
        return new MergeSettings(10, 4, share, 64L << 20);
    }

    /** One manager tick {@code TICK_NANOS} after the previous one. */
    private void tick() {
        now += TICK_NANOS;
        manager.tick(now);
    }

    @Test
    void aShareThatSwingsWithEverySealDoesNotMergeL1IntoL2AtItsDips() {
        FakeTree stock = new FakeTree("stock");
        manager.register(stock, "stock");
        Version v = stockShape(25 * MB);
        long sawtoothTicks = 400; // memory fills from 0.5 to 12 MB over 2 s, then a flush empties it
        long minShare = Long.MAX_VALUE;
        for (long i = 0; i < 90 * 200; i++) {
            stock.memory = (long) (0.5 * MB + (11.5 * MB) * (i % sawtoothTicks) / sawtoothTicks);
            stock.entries += 10;
            tick();
            if (i < 30 * 200) {
                continue; // the first 30 s: the slow share climbs from where the first tick found the tree
            }
            minShare = Math.min(minShare, stock.share);
            Optional<?> pick = picker.pick(v, Set.of(), settings(stock.share));
            assertTrue(pick.isEmpty(), "at " + i * 5 + " ms a share of " + stock.share + " B made L1 (25 MB) merge: " + pick);
        }
        // The mean of the sawtooth is 6.25 MB: target(L1) = sqrt(6.25 MB * 115 MB) = 26.8 MB (equal level
        // ratios), no L1 -> L2 merge; at the half-second average's dips (4.5 MB) it is 22.7 MB.
        assertTrue(minShare > 5.5 * MB && minShare < 7 * MB, "share " + minShare);
    }

    @Test
    void anIdleTreeKeepsTheShareItWasWrittenWith() {
        FakeTree t = new FakeTree("usertable7");
        manager.register(t, "ycsb");
        for (long i = 0; i < 60 * 200; i++) { // a phase that writes it: about 6 MB of memory
            t.memory = (long) (6 * MB + ((i % 2 == 0) ? MB / 2 : -MB / 2));
            t.entries += 10;
            tick();
        }
        long written = t.share;
        assertTrue(written > 5.5 * MB, "share " + written);
        // The next phase writes other trees: this one is flushed and holds nothing for a minute.
        t.memory = 0;
        for (long i = 0; i < 60 * 200; i++) {
            tick();
        }
        assertEquals(written, t.share, "an idle tree's share stays");
        // |L1| = 50 MB is under B*T = 10 * 6 MB: no empty L1 is added for the share it will have again.
        assertEquals(Optional.empty(), picker.levelChange(stockShape(50 * MB), settings(t.share)));
    }

    @Test
    void aJustRegisteredTreeChangesNoLevelUntilItHasBeenWrittenForATimeConstant() {
        // A reopened YCSB table: L1 of 114 MB fits its real share (about 64 MB, B*T = 640 MB), but
        // registration can only guess the floor (4 MB here: B*T = 40 MB < |L1|).
        FakeTree t = new FakeTree("usertable");
        manager.register(t, "ycsb");
        assertFalse(t.levelCountSettled, "the registration share is a guess");
        assertTrue(picker.levelChange(stockShape(114 * MB), settings(t.share)).isPresent(), "what the guess alone would do");
        for (long i = 0; i < 20 * 200; i++) { // 20 s idle (a read-only phase): not settled
            tick();
        }
        assertFalse(t.levelCountSettled, "idle time does not settle the share");
        for (long i = 0; i < 1_999; i++) { // written, but for under 10 s
            t.memory = 64 * MB;
            t.entries += 10;
            tick();
        }
        assertFalse(t.levelCountSettled, "written for 9.995 s");
        t.entries += 10;
        tick();
        assertTrue(t.levelCountSettled, "written for 10 s");
        assertEquals(Optional.empty(), picker.levelChange(stockShape(114 * MB), settings(t.share)), "share " + t.share);
    }

    @Test
    void aReopenedTreeSettlesAtTheShareItIsWrittenWithNotPartWayFromTheGuess() {
        // Just opened: the first ticks find the tree holding nothing; then it is written with 64 MB.
        FakeTree t = new FakeTree("usertable");
        manager.register(t, "ycsb");
        for (long i = 0; i < 200; i++) { // 1 s idle
            tick();
        }
        while (!t.levelCountSettled) {
            t.memory = 64 * MB;
            t.entries += 10;
            tick();
        }
        // The mean of the fast average over the first 10 s of writes (it takes about half a second to
        // climb): with dt / timeConstant from the start the share would be 63% of the way, about 40 MB.
        assertTrue(t.share > 0.9 * 64 * MB && t.share <= 64 * MB, "settled at " + t.share);
    }

    @Test
    void theShareFollowsAGrowingWriteMemoryWithinTensOfSeconds() {
        FakeTree t = new FakeTree("order_line");
        manager.register(t, "order_line");
        for (long i = 0; i < 30 * 200; i++) {
            t.memory = 2 * (FLOOR);
            t.entries++;
            tick();
        }
        assertTrue(Math.abs(t.share - 2 * FLOOR) < FLOOR / 10, "share " + t.share);
        for (long i = 0; i < 30 * 200; i++) { // the tuner doubled write memory: the tree holds twice as much
            t.memory = 4 * FLOOR;
            t.entries++;
            tick();
        }
        assertTrue(Math.abs(t.share - 4 * FLOOR) < FLOOR / 2, "share " + t.share); // 30 s = 3 time constants: 95%
    }

    @Test
    void theFloorFollowsTheWriteMemoryInEffectNotTheOpeningOne() {
        try (WriteMemoryPool p = new WriteMemoryPool(WriteMemoryPoolOptions.of(16L << 20).withPageSize(64 * 1024))) {
            // The engine's rule: min(memory-component-size = 32 MiB, write memory / 8).
            WriteMemoryManager m = new WriteMemoryManager(p,
                    new WriteMemoryOptions(WriteMemoryScheme.PARTITIONED, FlushPolicyKind.OPTIMAL, 0.95, 1, 1 << 30, 32L << 20, 1.0 / 8), () -> 0);
            FakeTree t = new FakeTree("order_line");
            m.register(t, "order_line");
            t.entries++;
            m.tick(now += TICK_NANOS);
            assertEquals(2L << 20, t.share, "opened at 16 MiB: the floor is 2 MiB");
            m.resize(32L << 20, 0); // the tuner moves write memory to 32 MiB
            t.entries++;
            m.tick(now += TICK_NANOS);
            assertEquals(4L << 20, t.share, "at 32 MiB the floor is 4 MiB, as in a tree opened there");
        }
    }
}
