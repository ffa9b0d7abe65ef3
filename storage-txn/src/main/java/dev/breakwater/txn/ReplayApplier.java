package dev.breakwater.txn;

import dev.breakwater.lsm.tree.LsmTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Applies the tree operations of replayed commit records to the trees on worker threads, so that
 * reading and checking the log (the caller's thread) overlaps with writing the memory components,
 * and trees are written in parallel when there are several.
 *
 * <p>The reading thread calls {@link #accept} once per log record, in LSN order. Each operation
 * whose tree exists and whose LSN is above the tree's durable LSN at open is copied into a batch
 * buffer of the worker that owns the tree (a tree belongs to one worker, chosen by its slot), and
 * full batches are handed to the worker through a bounded queue. So every tree receives its
 * operations in LSN order, exactly as the single-threaded replay applied them; operations of
 * different trees may be applied in any order relative to each other, which is what the
 * per-tree durable LSNs and the idempotence of replay already allow. {@link #finish} hands over the
 * last batches and waits until every accepted operation is applied: after it returns, the trees
 * hold exactly what a sequential replay of the same records would have given them.
 *
 * <p>Nothing is allocated per record: the batches are recycled byte arrays, the operations are
 * visited in place ({@link CommitRecordFormat#visit}), and each worker copies a key and value into
 * its own scratch arrays before {@link LsmTree#write}.
 *
 * <p>Batch layout, little endian, one entry per operation:
 * {@code i64 lsn | i32 tree slot | u8 delete | i32 key length | key | i32 value length | value}.
 *
 * <p>Failure: the first exception a worker meets stops every worker; the reading thread sees it at
 * its next {@link #accept} or at {@link #finish}, which rethrow it. {@link #close} stops the workers
 * whatever happened and must always be called.
 *
 * <p>Thread safety: {@link #accept} and {@link #finish} are for the one reading thread; workers share
 * only the queues and the failure reference.
 */
final class ReplayApplier implements AutoCloseable {

    /** Bytes of one batch buffer; an operation larger than this gets a buffer of its own size. */
    static final int BATCH_BYTES = 256 * 1024;
    /** Entry bytes besides key and value: lsn, slot, kind, two lengths. */
    private static final int ENTRY_OVERHEAD = 8 + 4 + 1 + 4 + 4;
    /** Full batches a worker may have queued before the reader waits. */
    private static final int QUEUE_BATCHES = 8;
    private static final Batch END = new Batch(0);

    private final WriteLimits limits;
    private final long[] treeIds;        // sorted
    private final LsmTree[] trees;       // by slot, parallel to treeIds
    private final long[] durableAtOpen;  // by slot
    private final Worker[] workers;
    private final Batch[] filling;       // by worker
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CommitRecordFormat.OpVisitor router = this::route;
    private long currentLsn;
    private long routed;
    private boolean finished;

    ReplayApplier(Map<Long, LsmTree> treesById, WriteLimits limits, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("recovery threads " + threads + " < 1");
        }
        this.limits = limits;
        this.treeIds = treesById.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        this.trees = new LsmTree[treeIds.length];
        this.durableAtOpen = new long[treeIds.length];
        for (int i = 0; i < treeIds.length; i++) {
            trees[i] = treesById.get(treeIds[i]);
            durableAtOpen[i] = trees[i].durableLsn();
        }
        int n = Math.max(1, Math.min(threads, treeIds.length));
        this.workers = new Worker[n];
        this.filling = new Batch[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new Worker(i);
            filling[i] = new Batch(BATCH_BYTES);
        }
        for (Worker w : workers) {
            w.start();
        }
    }

    /** The worker count recovery uses for {@code configured} ({@code recovery-threads}; 0 = automatic). */
    static int threads(int configured) {
        if (configured > 0) {
            return configured;
        }
        return Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors() - 1));
    }

    /**
     * Routes the operations of the record at {@code lsn} to their trees' workers.
     *
     * @throws IOException if the payload is not a commit record, or a worker failed
     * @throws StorageException if an operation is over this engine's key or record limits
     */
    void accept(long lsn, ByteBuffer payload) throws IOException {
        rethrowFailure();
        currentLsn = lsn;
        try {
            CommitRecordFormat.visit(payload, router);
        } catch (IllegalArgumentException e) {
            throw new IOException("log record at LSN " + lsn + " passed its checksum but is not a commit record: "
                    + e.getMessage(), e);
        }
    }

    private void route(boolean delete, long treeId, ByteBuffer payload, int keyOffset, int keyLength, int valueOffset,
                       int valueLength) {
        int slot = Arrays.binarySearch(treeIds, treeId);
        if (slot < 0 || currentLsn <= durableAtOpen[slot]) {
            return; // a dropped tree, or a write the tree already holds on disk
        }
        limits.checkReplayed(currentLsn, keyLength, valueLength, trees[slot]);
        int w = slot % workers.length;
        Batch b = filling[w];
        int need = ENTRY_OVERHEAD + keyLength + valueLength;
        if (b.remaining() < need) {
            handOver(w);
            b = filling[w];
            if (b.remaining() < need) {
                b = new Batch(need); // one oversized operation
                filling[w] = b;
            }
        }
        b.put(currentLsn, slot, delete, payload, keyOffset, keyLength, valueOffset, valueLength);
        routed++;
    }

    /** Queues worker {@code w}'s filling batch and takes a recycled (or new) one in its place. */
    private void handOver(int w) {
        Batch full = filling[w];
        Worker worker = workers[w];
        putInterruptibly(worker.queue, full);
        Batch next = worker.free.poll();
        filling[w] = next != null ? next : new Batch(BATCH_BYTES);
    }

    /**
     * Hands over the last batches and waits until every accepted operation has been applied.
     *
     * @return the number of tree operations applied
     * @throws IOException or an unchecked exception: the first failure of a worker
     */
    long finish() throws IOException {
        if (!finished) {
            finished = true;
            for (int w = 0; w < workers.length; w++) {
                if (filling[w].length() > 0) {
                    handOver(w);
                }
                putInterruptibly(workers[w].queue, END);
            }
            joinWorkers();
        }
        rethrowFailure();
        return routed;
    }

    @Override
    public void close() {
        if (!finished) {
            finished = true;
            failure.compareAndSet(null, new IllegalStateException("replay abandoned"));
            for (Worker w : workers) {
                w.queue.clear();
                w.queue.offer(END);
            }
        }
        joinWorkers();
    }

    private void joinWorkers() {
        boolean interrupted = false;
        for (Worker w : workers) {
            while (w.isAlive()) {
                try {
                    w.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void rethrowFailure() throws IOException {
        Throwable t = failure.get();
        if (t == null) {
            return;
        }
        if (t instanceof IOException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (t instanceof UncheckedIOException e) {
            throw new IOException(e.getMessage(), e);
        }
        if (t instanceof StorageException e) {
            throw e;
        }
        if (t instanceof RuntimeException e) {
            throw new IllegalStateException("replaying the log failed: " + e.getMessage(), e);
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IOException("replaying the log failed: " + t.getMessage(), t);
    }

    private void putInterruptibly(BlockingQueue<Batch> queue, Batch batch) {
        while (true) {
            try {
                while (!queue.offer(batch, 10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    if (failure.get() != null) {
                        return; // the worker stopped taking: the failure is rethrown by the caller
                    }
                }
                return;
            } catch (InterruptedException e) {
                failure.compareAndSet(null, e);
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One worker: applies the batches of its trees in order. */
    private final class Worker extends Thread {
        final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUE_BATCHES);
        final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(QUEUE_BATCHES + 1);
        private byte[] key = new byte[256];
        private byte[] value = new byte[1024];

        Worker(int index) {
            super("breakwater-replay-" + index);
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                for (Batch b = queue.take(); b != END; b = queue.take()) {
                    if (failure.get() == null) {
                        apply(b);
                    }
                    b.clear();
                    if (b.capacity() == BATCH_BYTES) {
                        free.offer(b);
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                queue.clear(); // unblock the reader; it sees the failure
            }
        }

        private void apply(Batch batch) throws IOException {
            ByteBuffer b = batch.buffer;
            int pos = 0;
            int end = batch.length();
            while (pos < end) {
                long lsn = b.getLong(pos);
                int slot = b.getInt(pos + 8);
                boolean delete = b.get(pos + 12) == 1;
                int keyLength = b.getInt(pos + 13);
                if (key.length < keyLength) {
                    key = new byte[Math.max(keyLength, key.length * 2)];
                }
                b.get(pos + 17, key, 0, keyLength);
                int v = pos + 17 + keyLength;
                int valueLength = b.getInt(v);
                if (value.length < valueLength) {
                    value = new byte[Math.max(valueLength, value.length * 2)];
                }
                b.get(v + 4, value, 0, valueLength);
                trees[slot].write(key, keyLength, value, valueLength, delete, lsn);
                pos = v + 4 + valueLength;
            }
        }
    }

    /** A growable run of entries in a heap buffer, recycled between the reader and one worker. */
    private static final class Batch {
        final ByteBuffer buffer;

        Batch(int capacity) {
            this.buffer = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
        }

        int capacity() {
            return buffer.capacity();
        }

        int length() {
            return buffer.position();
        }

        int remaining() {
            return buffer.remaining();
        }

        void clear() {
            buffer.clear();
        }

        void put(long lsn, int slot, boolean delete, ByteBuffer src, int keyOffset, int keyLength, int valueOffset,
                 int valueLength) {
            buffer.putLong(lsn).putInt(slot).put((byte) (delete ? 1 : 0)).putInt(keyLength);
            buffer.put(buffer.position(), src, keyOffset, keyLength);
            buffer.position(buffer.position() + keyLength).putInt(valueLength);
            buffer.put(buffer.position(), src, valueOffset, valueLength);
            buffer.position(buffer.position() + valueLength);
        }
    }
}
