package dev.breakwater.lsm.tree;

import dev.breakwater.lsm.merge.MergeTask;
import dev.breakwater.lsm.sstable.MonkeyAllocation;
import dev.breakwater.lsm.version.Run;
import dev.breakwater.lsm.version.TableMeta;
import dev.breakwater.lsm.version.Version;
import java.util.List;

/**
 * The Bloom bits per key of an SSTable a flush or a merge is about to write into a level. With
 * {@link LsmTreeOptions.BloomAllocation#UNIFORM} that is {@link LsmTreeOptions#bloomBitsFor(int)}. With
 * {@link LsmTreeOptions.BloomAllocation#MONKEY} it is the level's share in a {@link MonkeyAllocation}
 * over the tree's disk levels as they will be once the output is installed: the current version's
 * entries and runs per level, less a merge's inputs, plus the output (a new L0 run for a flush). The total matches {@code bloomBitsPerKey} per key over the whole
 * tree. Tables keep the filter they were written with, so the allocation is exact for the tree shape
 * at the time of each write and approximate in between.
 *
 * <p>Thread safety: stateless; safe.
 */
final class BloomBits {

    private BloomBits() {
    }

    /**
     * @param v               the current version
     * @param level           the output level
     * @param writingEntries  entries about to be written (an estimate is fine)
     * @param inputs          tables that leave the tree when the output is installed (a merge's
     *                        inputs; empty for a flush)
     */
    static double forLevel(LsmTreeOptions o, Version v, int level, long writingEntries, List<MergeTask.Input> inputs) {
        if (o.bloomAllocation() == LsmTreeOptions.BloomAllocation.UNIFORM) {
            return o.bloomBitsFor(level);
        }
        int levels = Math.max(v.levelCount(), level + 1);
        long[] entries = new long[levels];
        int[] runs = new int[levels];
        for (int i = 0; i < v.levelCount(); i++) {
            for (Run r : v.level(i)) {
                if (!r.isEmpty()) {
                    runs[i]++;
                }
                for (TableMeta t : r.tables()) {
                    entries[i] += t.entries();
                }
            }
        }
        for (MergeTask.Input in : inputs) {
            for (TableMeta t : in.tables()) {
                entries[in.level()] -= t.entries();
            }
        }
        long writing = Math.max(1, writingEntries);
        entries[level] += writing;
        if (level == 0) {
            runs[0]++;
        } else {
            runs[level] = Math.max(runs[level], 1);
        }
        for (int i = 0; i < levels; i++) {
            if (entries[i] <= 0) {
                entries[i] = 0;
                runs[i] = 0;
            }
        }
        return MonkeyAllocation.bitsPerKey(entries, runs, o.bloomBitsPerKey())[level];
    }
}
