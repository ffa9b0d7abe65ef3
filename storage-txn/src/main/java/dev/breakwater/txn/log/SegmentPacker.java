package dev.breakwater.txn.log;

import dev.breakwater.common.io.FileSystem;
import dev.breakwater.common.io.OpenOption;
import dev.breakwater.common.io.StorageFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Background trimming and compression of sealed log segments (paper 002, "WAL-assisted tiering"):
 * rewrites sealed segments as packed files ({@link PackedSegmentFormat}) without the operations the
 * trees no longer hold only in memory, and/or LZ4-compressed, so that the log on disk stays near
 * λ_t times the data in write memory instead of growing with the age of the oldest entry in memory.
 *
 * <h2>When</h2>
 * Trimming: a <em>pass</em> starts when the sealed segments take more than λ_t ({@link
 * PackingOptions#trimStart()}) times the bytes in write memory, or the log takes more than half of
 * max-log-size on disk ({@link PackingOptions#trimWallBytes()}: the log-triggered flush fires at the
 * whole, and with max-log-size below λ_t times write memory λ would never start a pass first), and,
 * after a pass that left the log above λ_s or above that half, only once the sealed log has grown again. Compression alone: each newly sealed plain
 * segment, one at a time, before any pass (a pass then finds every segment it keeps whole already
 * compressed and writes only what it trims).
 *
 * <h2>A pass, and why a crash at any point leaves a correct log</h2>
 * A record holds several operations, on several trees. Replay re-applies an operation to a tree iff
 * its LSN is above the tree's durable LSN, in LSN order, so for each key the last operation replayed
 * wins. Leaving operations out is therefore safe iff, for every key of every tree, either the newest
 * operation is replayed, or none above the tree's durable LSN is and the disk holds the newest. The
 * danger is an <em>older</em> operation on a key staying in the log while the newer one that
 * superseded it on disk was trimmed away: replay would resurrect the old value. (The paper's RocksDB
 * integration has one key per record; here a record kept for one live operation must not keep its
 * dead ones, hence trimming per operation, through {@link RecordTrimmer}.)
 *
 * <p>The rules that exclude it:
 * <ol>
 *   <li><b>Liveness from memory itself.</b> An operation is kept iff its tree's memory holds a
 *       version of the key in a table whose oldest LSN is at or below the operation's, and the
 *       key's newest version is this operation's write (the engine's {@link RecordTrimmer}). No flush or merge has to report anything, so no missed
 *       report can drop a needed operation or keep a stale one. Records at or above
 *       {@code min(end of log, oldest unapplied commit)} (read in that order, as {@code
 *       LogKeepPoint} does) are kept whole: they may not be in memory yet. An operation left out is
 *       <em>superseded</em> (memory holds a newer version of its key, the key's newest write) or
 *       <em>gone</em> (memory holds none: it may be the key's newest write).</li>
 *   <li><b>Newest record first.</b> Every pass judges <em>all</em> sealed segments, newest
 *       first, and the records of each segment newest first too ({@link SegmentRecords}), so each
 *       operation is judged after every newer one. If a newer operation on a key was judged dead
 *       at time t, every older operation on that key was also gone from memory at t (versions never
 *       come back into memory), and, judged after t, is dead too, unless a still newer write on the
 *       key came into memory; that write is in the log, judged live, and replayed last.</li>
 *   <li><b>Rewrite what pays, and what safety then needs.</b> A segment some of whose operations
 *       are dead is rewritten without every dead one iff (a) they make at least {@link
 *       PackingOptions#minDeadRatio()} of its payload bytes, or (b) one of them is on a key
 *       ({@link GoneKeys}) of which this pass left an operation out <em>as gone</em> in a newer
 *       segment it rewrote. Otherwise it is kept whole, dead operations included.</li>
 *   <li><b>Durable before swapped.</b> Before the first swap of a pass, the log is made durable up
 *       to its end as read after the last filtering (ASYNC: a dropped operation may have been
 *       superseded in memory by a commit not yet on disk).</li>
 *   <li><b>Oldest swap first, each durable before the next.</b> Each packed file is written and
 *       fsynced under a temporary name, then renamed over its segment and the directory synced
 *       ({@link LogManager#replaceSealed}). A crash before a rename leaves a {@code .packing} file,
 *       deleted at the next open.</li>
 *   <li><b>Truncation and swaps exclude each other</b> ({@link LogManager}'s swap lock): a segment
 *       truncated meanwhile is not brought back.</li>
 * </ol>
 * The active segment is never touched; a packed file is never the newest segment.
 *
 * <p><b>Why that is enough.</b> Call a log state <em>safe</em> if for every key the newest
 * operation on it still in the log is newer than every operation on it any pass left out (or none
 * is left). Replay is then right: if that newest present operation is above the tree's durable LSN
 * it is the key's newest write (nothing newer was left out) and is replayed last; if it is not, no
 * older one is replayed either and the disk holds it; if none is left, the newest operation left
 * out was gone (a superseded one has a newer write that stays), so its write is on disk. The
 * untrimmed log is safe; each pass keeps it safe:
 * <ul>
 *   <li><i>At the end of a pass.</i> Take a key with operations left out by this pass, y the newest.
 *       If y was superseded, memory held the key's newest write z &gt; y; z was in memory (the newest
 *       version, so live) whenever it was judged, or is above the pass's segments: z stays, newer
 *       than anything ever left out on the key. If y was
 *       gone, take any older operation x on the key that the pass found in the log: by rule 2 it was
 *       judged dead (or a newer write came into memory, which stays in the log, newer than y); x's
 *       segment is y's (rewritten: x left out) or older, and then rewritten by rule 3b (x dead, on a
 *       key gone in a newer rewritten segment): x is left out. Either way the key is safe; keys
 *       without operations left out by this pass were safe before and lost nothing.</li>
 *   <li><i>After a crash in the pass</i> (rule 5): the swapped segments are the oldest of those
 *       rewritten; each segment holds its old content or its new one, which is a subset. With P, D
 *       the operations present and left out in the crash state, and P', D' at the end of the pass:
 *       P ⊇ P', D ⊆ D'. If the key has an operation in P', max P ≥ max P' &gt; max D' ≥ max D. If
 *       not, its operations in P sit in unswapped rewritten segments (one in a segment kept whole
 *       or swapped would be in P'), newer than every swapped one, hence newer than what this pass
 *       left out so far; the key's newest operation present before the pass is at least as new, so
 *       it is in P too, and it was newer than everything left out before.</li>
 * </ul>
 * Keeping the <em>newest</em> segments whole is always safe; keeping an <em>older</em> one whole
 * under a newer rewrite that left a key out as gone is what rule 3b forbids (a "skip every segment
 * not worth it" rule would replay the older write: {@code SegmentPackerTest}). Superseded
 * operations need nothing of older segments: the key's newest write stays and is replayed last.
 *
 * <p>Cost: a pass reads every sealed segment and looks up each operation's key in its tree's
 * memory; it writes only segments rule 3 picks, and of them only the live bytes. A segment whose
 * every operation is dead is rewritten as an empty packed file (the paper's delete of a segment with
 * an empty bitmap; only truncation deletes files). The paper's "lowest live ratio first" order is
 * replaced by rule 2 and the threshold of rule 3a: older segments (the lowest ratios) pass it first.
 *
 * <p>Thread safety: runs on its own thread; {@link #start()} once, {@link #stop()} waits for it.
 * The counters are written by that thread and read by anyone.
 */
public final class SegmentPacker implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentPacker.class);

    private final LogManager log;
    private final PackingOptions options;
    private final RecordTrimmer trimmer;
    private final LongSupplier memoryBytes;
    private final int maxRecordSize;
    private final CRC32C crc = new CRC32C();
    private volatile boolean running;
    /** Set by {@link #stop()}: a pass in progress gives up before its swaps. */
    private volatile boolean stopRequested;
    private Thread thread;
    /** The pass's keys left out as gone (rule 3b). Packer thread only. */
    private final GoneKeys goneKeys = new GoneKeys();
    /** Sealed bytes after the last pass that could not reach λ_s; -1 if none. Packer thread only. */
    private long stuckAt = -1;

    volatile long passes;
    volatile long trimmedSegments;
    volatile long compressedSegments;
    volatile long bytesRead;
    volatile long bytesWritten;
    volatile long recordsDropped;
    volatile long recordsReduced;
    volatile long passNanos;
    volatile long failures;
    volatile long segmentsKeptWhole;
    volatile long segmentsForced;
    volatile long bytesJudged;
    volatile long deadBytesJudged;

    /**
     * @param trimmer     decides which operations are still needed; required when trimming
     * @param memoryBytes bytes of data in write memory (the denominator of λ)
     */
    public SegmentPacker(LogManager log, PackingOptions options, RecordTrimmer trimmer, LongSupplier memoryBytes) {
        if (options.trim() && trimmer == null) {
            throw new IllegalArgumentException("trimming needs a RecordTrimmer");
        }
        this.log = log;
        this.options = options;
        this.trimmer = trimmer;
        this.memoryBytes = memoryBytes;
        this.maxRecordSize = log.options().maxRecordSize();
    }

    public void start() {
        if (!options.enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this, "breakwater-log-packer");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the packer and waits for the pass in progress (a swap is never left half done). */
    public void stop() {
        stopRequested = true;
        running = false;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            boolean interrupted = false;
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                if (!tick()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(options.periodMillis()));
                }
            } catch (IOException | RuntimeException e) {
                failures++;
                if (log.failure() == null) {
                    LOG.warn("log packer: {}; segments already swapped stay swapped (each is a complete packed file); the rest is retried later", e.toString());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(Math.max(1000, options.periodMillis())));
            }
        }
    }

    /** One round of work; true if it did something (and may have more). Package-private for tests. */
    boolean tick() throws IOException {
        if (log.failure() != null) {
            return false;
        }
        // Compression first: it shrinks every segment it touches (LZ4 about 2x on text), where a pass
        // mostly finds too little dead to rewrite, and a pass of a second or more ahead of it left the
        // newest segments plain meanwhile (session 13: the log on disk then peaked at its whole span,
        // above today's log's peak).
        if (options.compress()) {
            for (SegmentList.Sealed s : log.sealedSegments()) {
                if (!s.packed()) {
                    compressOnly(s);
                    return true;
                }
            }
        }
        if (options.trim() && trimDue()) {
            trimPass();
            return true;
        }
        return false;
    }

    /**
     * λ = sealed bytes on disk / bytes in write memory above λ_t, or the log on disk above half of
     * max-log-size (where log-triggered flushes fire: when λ_t times write memory lies beyond that
     * wall, λ alone would never start a pass before the flush it should spare); and grown since a
     * pass that fell short.
     */
    boolean trimDue() {
        long sealed = log.sealedSegmentsStoredBytes();
        long memory = Math.max(1, memoryBytes.getAsLong());
        if (sealed <= options.trimStart() * memory && log.diskBytes() <= options.trimWallBytes()) {
            stuckAt = -1;
            return false;
        }
        return stuckAt < 0 || sealed - stuckAt >= log.options().segmentSize();
    }

    /** Runs one trimming pass over every sealed segment (see the class comment for the order). */
    void trimPass() throws IOException {
        long start = System.nanoTime();
        passes++;
        List<SegmentList.Sealed> sealed = log.sealedSegments();
        List<Prepared> prepared = new ArrayList<>();
        goneKeys.startPass();
        try {
            long endAfterFiltering = 0;
            for (int i = sealed.size() - 1; i >= 0 && !stopRequested; i--) {
                SegmentList.Sealed s = sealed.get(i);
                long end = log.endLsn(); // first: see LogKeepPoint
                long bound = Math.min(end, trimmer.oldestUnapplied());
                Prepared p;
                try {
                    p = filter(s, bound);
                } catch (NoSuchFileException e) {
                    if (stillSealed(s)) {
                        throw e;
                    }
                    continue; // truncated while the pass ran: nothing left to trim there (and older ones are gone too)
                }
                endAfterFiltering = Math.max(endAfterFiltering, log.endLsn());
                if (p != null) {
                    prepared.add(p);
                }
            }
            if (stopRequested) {
                return; // the finally deletes what was written; nothing was swapped
            }
            if (!prepared.isEmpty() && endAfterFiltering > 0) {
                log.awaitDurable(endAfterFiltering - 1);
            }
            for (int i = prepared.size() - 1; i >= 0; i--) { // oldest first
                Prepared p = prepared.remove(i);
                if (log.replaceSealed(p.firstLsn, p.temp, p.storedBytes)) {
                    bytesWritten += p.storedBytes;
                    if (p.trimmed) {
                        trimmedSegments++;
                    } else {
                        compressedSegments++;
                    }
                }
            }
        } finally {
            for (Prepared p : prepared) {
                log.fileSystem().delete(p.temp);
            }
        }
        passNanos += System.nanoTime() - start;
        long after = log.sealedSegmentsStoredBytes();
        boolean fellShort = after > options.trimStop() * Math.max(1, memoryBytes.getAsLong())
                || log.diskBytes() > options.trimWallBytes();
        stuckAt = fellShort ? after : -1;
        LOG.debug("log trim pass over {} sealed segments: {} bytes on disk now, {} ms", sealed.size(), after,
                (System.nanoTime() - start) / 1_000_000);
    }

    private boolean stillSealed(SegmentList.Sealed s) {
        for (SegmentList.Sealed now : log.sealedSegments()) {
            if (now.firstLsn() == s.firstLsn()) {
                return true;
            }
        }
        return false;
    }

    private record Prepared(long firstLsn, Path temp, long storedBytes, boolean trimmed) {
    }

    /**
     * Filters segment {@code s}: judges every record (rules 1, 2) and, if rule 3 picks the segment,
     * writes a packed replacement holding only what {@link RecordTrimmer} keeps (records at or above
     * {@code bound} whole) and returns it; a segment kept whole is returned compressed if it is plain
     * and compression is on, else null.
     */
    private Prepared filter(SegmentList.Sealed s, long bound) throws IOException {
        SegmentRecords records = SegmentRecords.read(s.endLsn() - s.firstLsn(), consumer -> forEachRecord(s, consumer));
        int n = records.count();
        // Newest record first, within the segment as across segments (rule 2): an older operation on
        // a key must be judged after every newer one, or a flush between the two judgements keeps the
        // older write and drops the newer one that superseded it on disk.
        ByteBuffer[] kept = new ByteBuffer[n];
        goneKeys.startSegment();
        long totalBytes = 0;
        long judgedBytes = 0;
        long deadBytes = 0;
        int dropped = 0;
        int reduced = 0;
        for (int i = n - 1; i >= 0; i--) {
            ByteBuffer payload = records.payload(i);
            long lsn = records.lsn(i);
            long reportsBefore = goneKeys.reports();
            kept[i] = lsn >= bound ? payload : trimmer.trim(lsn, payload, goneKeys);
            totalBytes += payload.remaining();
            if (lsn < bound) {
                judgedBytes += payload.remaining();
            }
            if (kept[i] != payload) {
                if (goneKeys.reports() == reportsBefore) {
                    goneKeys.unknown(); // changed without saying which key: every key, to be safe
                }
                if (kept[i] == null) {
                    dropped++;
                    deadBytes += payload.remaining();
                } else {
                    reduced++;
                    deadBytes += Math.max(0, payload.remaining() - kept[i].remaining());
                }
            }
        }
        bytesJudged += judgedBytes;
        deadBytesJudged += deadBytes;
        boolean changed = dropped + reduced > 0;
        boolean worth = changed && deadBytes >= options.minDeadRatio() * totalBytes; // rule 3a
        boolean forced = changed && !worth && goneKeys.keepingWholeIsUnsafe(); // rule 3b
        if (worth || forced) {
            goneKeys.rewritten();
            recordsDropped += dropped;
            recordsReduced += reduced;
            if (forced) {
                segmentsForced++;
            }
        } else {
            if (changed) {
                segmentsKeptWhole++;
            }
            if (s.packed() || !options.compress()) {
                return null; // a rewrite would hold the same records in the same form
            }
            for (int i = 0; i < n; i++) {
                kept[i] = records.payload(i); // kept whole: only compressed
            }
            changed = false;
        }
        ByteBuffer out = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 64, s.endLsn() - s.firstLsn()))
                .order(ByteOrder.LITTLE_ENDIAN);
        int written = 0;
        for (int i = 0; i < n; i++) {
            if (kept[i] == null) {
                continue;
            }
            long lsn = records.lsn(i);
            int length = kept[i].remaining();
            int at = out.position();
            LogRecordFormat.writeHeader(out, at, length, LogRecordFormat.checksum(crc, kept[i], lsn), lsn);
            out.position(LogRecordFormat.payloadOffset(at));
            out.put(kept[i].duplicate());
            written++;
        }
        out.flip();
        Path temp = SegmentFiles.tempPath(log.directory(), s.firstLsn());
        boolean trimmed = records.wasTrimmed() || changed;
        long stored = PackedSegmentWriter.write(log.fileSystem(), temp, s.firstLsn(), s.endLsn(), out, written, trimmed,
                options.compress());
        return new Prepared(s.firstLsn(), temp, stored, trimmed);
    }

    /**
     * Packs a plain sealed segment unchanged but compressed (no filtering: no ordering rule applies).
     * A segment truncated before it was read is skipped, as in a pass.
     */
    private void compressOnly(SegmentList.Sealed s) throws IOException {
        Prepared p = null;
        try {
            ByteBuffer body = ByteBuffer.allocate((int) (s.endLsn() - s.firstLsn())).order(ByteOrder.LITTLE_ENDIAN);
            Path path = SegmentFiles.path(log.directory(), s.firstLsn());
            int[] records = new int[1];
            try {
                forEachRecord(s, (lsn, payload) -> records[0]++);
                try (StorageFile f = log.fileSystem().open(path, OpenOption.READ)) {
                    f.read(0, body);
                }
            } catch (NoSuchFileException e) {
                if (stillSealed(s)) {
                    throw e;
                }
                return; // truncated meanwhile: nothing left to compress
            }
            body.flip();
            Path temp = SegmentFiles.tempPath(log.directory(), s.firstLsn());
            long stored = PackedSegmentWriter.write(log.fileSystem(), temp, s.firstLsn(), s.endLsn(), body, records[0],
                    false, true);
            p = new Prepared(s.firstLsn(), temp, stored, false);
            if (log.replaceSealed(p.firstLsn, p.temp, p.storedBytes)) {
                compressedSegments++;
                bytesWritten += stored;
            }
            p = null;
        } finally {
            if (p != null) {
                log.fileSystem().delete(p.temp);
            }
        }
    }

    /**
     * Passes every record of sealed segment {@code s} to {@code consumer}; returns whether it was
     * already trimmed. Damage in a sealed segment is corruption and throws.
     */
    private boolean forEachRecord(SegmentList.Sealed s, LogRecordConsumer consumer) throws IOException {
        FileSystem fs = log.fileSystem();
        Path path = SegmentFiles.path(log.directory(), s.firstLsn());
        if (s.packed()) {
            PackedSegment packed = PackedSegment.read(fs, path, s.firstLsn());
            bytesRead += packed.storedBytes;
            RecordBlockScanner scanner = new RecordBlockScanner(packed, maxRecordSize);
            while (scanner.next()) {
                consumer.accept(scanner.recordLsn(), scanner.payload());
            }
            return packed.header.trimmed();
        }
        try (StorageFile file = fs.open(path, OpenOption.READ)) {
            long span = s.endLsn() - s.firstLsn();
            SegmentScanner scanner = new SegmentScanner(file, s.firstLsn(), span, maxRecordSize);
            LogStopReason stop;
            while ((stop = scanner.next()) == null) {
                consumer.accept(scanner.recordLsn(), scanner.payload());
            }
            bytesRead += span;
            if (stop != LogStopReason.END_OF_LOG || file.size() != span) {
                throw new LogCorruptedException(path, scanner.positionLsn() - s.firstLsn(), scanner.positionLsn(),
                        "sealed segment is damaged (" + scanner.stopDetail() + ") or not " + span + " bytes long");
            }
            return false;
        }
    }

    /** A copy of the packer's counters. */
    public PackerStatistics statistics() {
        return new PackerStatistics(passes, trimmedSegments, compressedSegments, bytesRead, bytesWritten, recordsDropped,
                recordsReduced, passNanos, failures, segmentsKeptWhole, segmentsForced, bytesJudged, deadBytesJudged);
    }
}
