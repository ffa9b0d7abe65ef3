package dev.breakwater.txn;

import dev.breakwater.common.config.StorageConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test {@link EngineExtension} registered in this module's test resources. Inert unless a test
 * sets {@link #mode}; records what the engine asked of it.
 *
 * <p>Thread safety: the static fields are for single-threaded tests (one test at a time sets them).
 */
public final class RecordingExtension implements EngineExtension {

    enum Mode { OFF, RECORD, FAIL }

    static volatile Mode mode = Mode.OFF;
    static final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public Closeable start(StorageEngine engine, Path dir, StorageConfig config) throws IOException {
        switch (mode) {
            case OFF:
                return null;
            case FAIL:
                throw new IOException("port 1 is taken");
            default:
                // The engine is usable when extensions start: they may read its statistics at once.
                events.add("start " + dir.getFileName() + " trees=" + engine.statistics().trees().size());
                return () -> events.add("stop " + dir.getFileName());
        }
    }
}
