package dev.breakwater.txn.log;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What the log's owner tells the {@link SegmentPacker} about its records: which of the operations
 * a logged record holds are still needed for recovery, and, for each one left out, why. The log
 * itself does not know the record format; the engine does (its commit records and its trees' memory).
 *
 * <p>Contract, on which the packer's safety argument rests (see {@link SegmentPacker}): for a record
 * below {@link #oldestUnapplied()} (read after the log's end), an operation may be left out only if
 * its tree no longer needs it replayed: the tree's memory holds no version of its key at or below
 * the operation's LSN that could still be the newest (in practice: no memory version of the key,
 * only ones in memory tables every one of whose writes is newer, or a newest version that another
 * write made). Each operation left out is told
 * to the {@link Dropped} sink as
 * <ul>
 *   <li><b>superseded</b> only if, when judged, memory held a version of its key newer than the
 *       operation (a memory table holds the key, and every write of that table is newer; or the
 *       newest visible version is another write's and memory still holds the key afterwards). That
 *       version is the key's newest applied write (memory is read before disk, so an older version
 *       cannot stay in memory while a newer one left it), and it stays in memory, judged live,
 *       until a flush puts it on disk;</li>
 *   <li><b>gone</b> otherwise (no memory version of the key, or its tree dropped): the operation may
 *       be the newest write of its key, so every older operation on the key must go too
 *       (the packer then rewrites older segments that still hold one).</li>
 * </ul>
 * Keys are told as {@link #keyHash} values; two keys sharing a hash only make the packer rewrite
 * more. A trimmer that cannot tell keys uses {@link Dropped#unknown()}, which the packer treats as a
 * gone operation on every key.
 *
 * <p>Implementations are called from the packer thread only but must be safe against concurrent
 * writes, flushes and merges.
 */
public interface RecordTrimmer {

    /** Receives, for one record, each operation {@link #trim(long, ByteBuffer, Dropped)} left out. */
    interface Dropped {

        /** An operation on the key hashed to {@code keyHash} was left out; {@code gone}: see {@link RecordTrimmer}. */
        void dropped(long keyHash, boolean gone);

        /** An operation on a key not told was left out: treated as gone, on every key. */
        void unknown();
    }

    /** The lowest LSN a commit in flight has or will get (not yet applied to every tree), or {@code Long.MAX_VALUE}. */
    long oldestUnapplied();

    /**
     * The record at {@code lsn} with only the operations still needed: {@code payload} itself (the
     * same object) to keep it whole, null if none is needed, or a new buffer holding the reduced
     * payload between its position and limit.
     */
    ByteBuffer trim(long lsn, ByteBuffer payload) throws IOException;

    /**
     * {@link #trim(long, ByteBuffer)}, telling {@code dropped} about each operation left out. The
     * default cannot tell keys: a record left out or reduced counts as {@link Dropped#unknown()}.
     */
    default ByteBuffer trim(long lsn, ByteBuffer payload, Dropped dropped) throws IOException {
        ByteBuffer kept = trim(lsn, payload);
        if (kept != payload) {
            dropped.unknown();
        }
        return kept;
    }

    /**
     * The hash the packer compares keys by: tree {@code treeId}, key {@code key[0, keyLen)}. Never
     * {@code Long.MIN_VALUE}.
     */
    static long keyHash(long treeId, byte[] key, int keyLen) {
        long h = 0x9E3779B97F4A7C15L * (treeId + 1);
        int i = 0;
        for (; i + 8 <= keyLen; i += 8) {
            long w = 0;
            for (int b = 0; b < 8; b++) {
                w |= (key[i + b] & 0xFFL) << (8 * b);
            }
            h = Long.rotateLeft(h ^ mix(w), 27) * 0x9E3779B97F4A7C15L + 0x52DCE729L;
        }
        long tail = keyLen;
        for (int b = 0; i < keyLen; i++, b++) {
            tail ^= (key[i] & 0xFFL) << (8 * b + 8);
        }
        h = mix(h ^ mix(tail));
        return h == Long.MIN_VALUE ? 0 : h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33);
    }
}
