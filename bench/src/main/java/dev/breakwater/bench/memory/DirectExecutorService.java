package dev.breakwater.bench.memory;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs each task on the calling thread before {@code execute} returns. Given to a
 * tree as its flush executor it makes the tree's memory work (sealing M0 into M1, memory merges)
 * synchronous with the write that triggered it, as in paper 000's Figure 8 ("memory merges were
 * always executed synchronously"): the writer pays for the merge CPU inside its own measured time.
 *
 * <p>Thread safety: safe; tasks run on whichever thread submits them.
 */
final class DirectExecutorService extends AbstractExecutorService {

    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }
}
