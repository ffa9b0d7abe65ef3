package dev.breakwater.common.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Ready-made {@link FaultInjector}s (LevelDB's fault-injection Env, Pebble's {@code errorfs}).
 * Stateful injectors (counting, random, disk-full, torn) count only the operations they are
 * asked about from the moment they are installed; inside {@link #anyOf} an operation failed by an
 * earlier injector is not shown to later ones.
 *
 * <p>Thread safety: every injector returned is safe for concurrent use.
 */
public final class FaultInjectors {

    private FaultInjectors() {
    }

    /** Fails only the {@code n}-th (1-based) {@code op}, once; every other operation proceeds. */
    public static FaultInjector failNth(FileOperation op, long n) {
        return failNth(op, path -> true, n);
    }

    /** Fails only the {@code n}-th (1-based) {@code op} on a path matching {@code paths}, once. */
    public static FaultInjector failNth(FileOperation op, Predicate<Path> paths, long n) {
        Objects.requireNonNull(op, "op");
        if (n < 1) {
            throw new IllegalArgumentException("n is 1-based: " + n);
        }
        AtomicLong seen = new AtomicLong();
        return (o, path) -> o == op && paths.test(path) && seen.incrementAndGet() == n
                ? new InjectedIOException(o, path, "operation number " + n + " of this kind")
                : null;
    }

    /** Fails every {@code op} on a path matching {@code paths}. */
    public static FaultInjector failAlways(FileOperation op, Predicate<Path> paths) {
        Objects.requireNonNull(op, "op");
        return (o, path) -> o == op && paths.test(path) ? new InjectedIOException(o, path, null) : null;
    }

    /**
     * Fails each operation of the given kinds (all kinds if none are given) with probability
     * {@code probability}, drawing from a {@link Random} seeded with {@code seed}: the same
     * sequence of operations fails at the same places.
     */
    public static FaultInjector failRandomly(long seed, double probability, FileOperation... ops) {
        if (!(probability >= 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
        }
        EnumSet<FileOperation> kinds = ops.length == 0 ? EnumSet.allOf(FileOperation.class) : EnumSet.of(ops[0], ops);
        Random random = new Random(seed);
        return (o, path) -> {
            if (!kinds.contains(o)) {
                return null;
            }
            boolean fail;
            synchronized (random) {
                fail = random.nextDouble() < probability;
            }
            return fail ? new InjectedIOException(o, path, "random failure (p=" + probability + ", seed=" + seed + ")")
                    : null;
        };
    }

    /**
     * A disk that holds {@code budgetBytes} more bytes: {@link FileOperation#WRITE}s and
     * {@link FileOperation#APPEND}s consume the budget (overwrites count too), and the first one
     * that does not fit, and every one after it, fails whole with "No space left on device".
     */
    public static FaultInjector diskFull(long budgetBytes) {
        if (budgetBytes < 0) {
            throw new IllegalArgumentException("negative disk budget: " + budgetBytes);
        }
        AtomicLong remaining = new AtomicLong(budgetBytes);
        return new FaultInjector() {
            @Override
            public IOException maybeFail(FileOperation op, Path path) {
                return maybeFail(op, path, 0);
            }

            @Override
            public IOException maybeFail(FileOperation op, Path path, long bytes) {
                if (op != FileOperation.WRITE && op != FileOperation.APPEND) {
                    return null;
                }
                long left = remaining.getAndUpdate(r -> r >= bytes ? r - bytes : r);
                return left >= bytes ? null : new InjectedIOException(op, path, "No space left on device (writing "
                        + bytes + " bytes, " + left + " of the " + budgetBytes + "-byte disk budget left)");
            }
        };
    }

    /**
     * Tears the first {@link FileOperation#WRITE} or {@link FileOperation#APPEND} on a path
     * matching {@code paths}: only its first {@code keepBytes} bytes reach the file, then it fails.
     */
    public static FaultInjector tornWrite(Predicate<Path> paths, int keepBytes) {
        if (keepBytes < 0) {
            throw new IllegalArgumentException("negative keepBytes: " + keepBytes);
        }
        AtomicBoolean fired = new AtomicBoolean();
        return (o, path) -> (o == FileOperation.WRITE || o == FileOperation.APPEND) && paths.test(path)
                && fired.compareAndSet(false, true)
                ? new InjectedIOException(o, path, "torn write, only " + keepBytes + " leading bytes written", keepBytes)
                : null;
    }

    /** Asks each injector in turn and returns the first failure. */
    public static FaultInjector anyOf(FaultInjector... injectors) {
        FaultInjector[] all = injectors.clone();
        return new FaultInjector() {
            @Override
            public IOException maybeFail(FileOperation op, Path path) {
                return maybeFail(op, path, 0);
            }

            @Override
            public IOException maybeFail(FileOperation op, Path path, long bytes) {
                for (FaultInjector injector : all) {
                    IOException e = injector.maybeFail(op, path, bytes);
                    if (e != null) {
                        return e;
                    }
                }
                return null;
            }
        };
    }
}
