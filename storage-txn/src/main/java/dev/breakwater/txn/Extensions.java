package dev.breakwater.txn;

import dev.breakwater.common.config.StorageConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EngineExtension}s started for one engine, and their stopping.
 *
 * <p>Invariant: {@link #handles} holds exactly the handles of the extensions that started and have
 * not been stopped, in start order; they are stopped in reverse order.
 *
 * <p>Thread safety: {@link #start} runs in the opening thread before the engine is published;
 * {@link #close} is called once from {@link StorageEngine#close()} (which is idempotent), so no
 * locking is needed.
 */
final class Extensions implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(Extensions.class);

    /** No extensions: the state before {@link #start} and for engines whose extensions failed. */
    static final Extensions NONE = new Extensions(List.of());

    private final List<Closeable> handles;

    private Extensions(List<Closeable> handles) {
        this.handles = handles;
    }

    /**
     * Starts every extension on the class path for {@code engine}.
     *
     * @throws StorageException naming the extension that failed; those already started are stopped
     */
    static Extensions start(StorageEngine engine, Path dir, StorageConfig config) {
        List<Closeable> started = new ArrayList<>();
        for (EngineExtension ext : ServiceLoader.load(EngineExtension.class, EngineExtension.class.getClassLoader())) {
            try {
                Closeable handle = ext.start(engine, dir, config);
                if (handle != null) {
                    started.add(handle);
                }
            } catch (IOException | RuntimeException e) {
                StorageException failure = new StorageException("cannot start engine extension "
                        + ext.getClass().getName() + " for " + dir + ": " + e.getMessage()
                        + " (fix its options, or remove its module from the class path)", e);
                new Extensions(started).closeInto(failure);
                throw failure;
            }
        }
        return new Extensions(List.copyOf(started));
    }

    @Override
    public void close() {
        closeInto(null);
    }

    private void closeInto(Throwable failure) {
        for (int i = handles.size() - 1; i >= 0; i--) {
            try {
                handles.get(i).close();
            } catch (IOException | RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else {
                    LOG.warn("engine extension {} failed to stop", handles.get(i), e);
                }
            }
        }
    }
}
