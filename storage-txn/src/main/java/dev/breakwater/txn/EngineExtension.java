package dev.breakwater.txn;

import dev.breakwater.common.config.StorageConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An optional service that runs beside an open engine, found with {@link java.util.ServiceLoader}
 * (a {@code META-INF/services/dev.breakwater.txn.EngineExtension} file in its jar). The stats
 * endpoint and the JMX MBeans of the {@code storage-ops} module are extensions: this keeps
 * {@code storage-txn} free of their dependencies (Netty, JMX wiring) while the engine still starts
 * and stops them from its own configuration.
 *
 * <p>Lifecycle: {@link #start} is called once at the end of a successful open, after recovery,
 * with the engine ready for use; the handle it returns is closed first thing in
 * {@link StorageEngine#close()}, before any part of the engine closes. An extension whose
 * {@code start} throws fails the open: the engine is closed and the open throws
 * {@link StorageException} naming the extension.
 *
 * <p>Thread safety: implementations must tolerate {@code start} being called from any thread and
 * for several engines at once (one handle per engine).
 */
public interface EngineExtension {

    /**
     * Starts this extension for {@code engine}.
     *
     * @param engine the engine just opened
     * @param dir    its data directory (identifies the engine in names such as JMX object names)
     * @param config its configuration (the extension reads its own options from it)
     * @return the handle that stops the extension at engine close, or {@code null} when the
     *         configuration leaves the extension off
     * @throws IOException if the extension is on but cannot start (e.g. its port is taken)
     */
    Closeable start(StorageEngine engine, Path dir, StorageConfig config) throws IOException;
}
