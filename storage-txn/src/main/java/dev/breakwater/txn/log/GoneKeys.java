package dev.breakwater.txn.log;

import dev.breakwater.common.util.LongLongOpenHashMap;
import java.util.Arrays;

/**
 * What one trimming pass of the {@link SegmentPacker} needs to know to keep a segment whole safely:
 * the keys ({@link RecordTrimmer#keyHash} values) of the operations it left out as <em>gone</em> in
 * the segments it rewrote so far (newest segment first), and the keys of every operation the
 * segment being judged would leave out. Keeping that segment whole is unsafe iff one of the latter
 * is among the former: a newer operation on the key left the log as gone, so this older one would
 * be replayed in its place (rule 3 of {@link SegmentPacker}).
 *
 * <p>Invariants: the pass's set only grows during a pass ({@link #startPass} empties it); a key not
 * told ({@link RecordTrimmer.Dropped#unknown()}) counts as every key. Hash collisions only make a
 * segment look unsafe to keep whole, so they cost a rewrite, never correctness.
 *
 * <p>Not thread-safe: the packer thread's own, reused from pass to pass.
 */
final class GoneKeys implements RecordTrimmer.Dropped {

    private final LongLongOpenHashMap passGone = new LongLongOpenHashMap(1024, 0);
    private boolean passGoneAll;
    private long[] segmentDead = new long[256];
    private int segmentDeadCount;
    private long[] segmentGone = new long[256];
    private int segmentGoneCount;
    private boolean segmentUnknown;
    private long reports;

    /** A new pass: nothing left out yet. */
    void startPass() {
        passGone.clear();
        passGoneAll = false;
        startSegment();
    }

    /** A new segment to judge: forgets the previous segment's verdicts (not the pass's). */
    void startSegment() {
        segmentDeadCount = 0;
        segmentGoneCount = 0;
        segmentUnknown = false;
    }

    @Override
    public void dropped(long keyHash, boolean gone) {
        reports++;
        if (keyHash == LongLongOpenHashMap.EMPTY_KEY) {
            keyHash = 0; // the map's reserved key; a shared hash only costs a rewrite
        }
        if (segmentDeadCount == segmentDead.length) {
            segmentDead = Arrays.copyOf(segmentDead, segmentDeadCount * 2);
        }
        segmentDead[segmentDeadCount++] = keyHash;
        if (gone) {
            if (segmentGoneCount == segmentGone.length) {
                segmentGone = Arrays.copyOf(segmentGone, segmentGoneCount * 2);
            }
            segmentGone[segmentGoneCount++] = keyHash;
        }
    }

    @Override
    public void unknown() {
        reports++;
        segmentUnknown = true;
    }

    /** How many operations were told left out so far (lets the packer see a record changed untold). */
    long reports() {
        return reports;
    }

    /**
     * Whether keeping the segment just judged whole could replay one of its operations over a newer
     * one on the same key that this pass left out as gone.
     */
    boolean keepingWholeIsUnsafe() {
        if (segmentDeadCount == 0 && !segmentUnknown) {
            return false;
        }
        if (passGoneAll || (segmentUnknown && passGone.size() > 0)) {
            return true;
        }
        for (int i = 0; i < segmentDeadCount; i++) {
            if (passGone.containsKey(segmentDead[i])) {
                return true;
            }
        }
        return false;
    }

    /** The segment just judged is rewritten without what it would leave out: its gone keys join the pass's. */
    void rewritten() {
        if (segmentUnknown) {
            passGoneAll = true;
        }
        for (int i = 0; i < segmentGoneCount; i++) {
            passGone.put(segmentGone[i], 1);
        }
    }
}
