package dev.breakwater.ops;

import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import dev.breakwater.ops.http.StatsHttpServer;
import dev.breakwater.ops.jmx.EngineMBeans;
import dev.breakwater.txn.EngineExtension;
import dev.breakwater.txn.StorageEngine;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.JMException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the stats endpoint ({@code http-enabled}, off by default) and the JMX MBeans
 * ({@code jmx-enabled}, on by default) of every engine opened while this module is on the class
 * path; registered in {@code META-INF/services/dev.breakwater.txn.EngineExtension}.
 *
 * <p>Thread safety: safe; engines may open and close concurrently. Invariant: {@link #SERVERS} maps
 * exactly the engines whose endpoint is running.
 */
public final class OpsExtension implements EngineExtension {

    private static final Logger LOG = LoggerFactory.getLogger(OpsExtension.class);
    private static final Map<StorageEngine, StatsHttpServer> SERVERS = new ConcurrentHashMap<>();

    /** Where {@code engine}'s stats endpoint listens, if it runs (the real port when http-port is 0). */
    public static Optional<InetSocketAddress> httpAddress(StorageEngine engine) {
        return Optional.ofNullable(SERVERS.get(engine)).map(StatsHttpServer::address);
    }

    @Override
    public Closeable start(StorageEngine engine, Path dir, StorageConfig config) throws IOException {
        String directory = dir.toAbsolutePath().normalize().toString();
        boolean http = config.get(ConfigOptions.HTTP_ENABLED);
        boolean jmx = config.get(ConfigOptions.JMX_ENABLED);
        if (!http && !jmx) {
            return null;
        }
        EngineMBeans beans = null;
        if (jmx) {
            try {
                beans = EngineMBeans.register(engine, new StatsCache(engine, StatsCache.DEFAULT_MAX_AGE_NANOS), directory);
            } catch (JMException e) {
                throw new IOException("cannot register JMX MBeans (set jmx-enabled to false to run without them): " + e, e);
            }
        }
        StatsHttpServer server = null;
        if (http) {
            try {
                server = StatsHttpServer.start(engine, directory, config.get(ConfigOptions.HTTP_BIND),
                        config.get(ConfigOptions.HTTP_PORT), config.get(ConfigOptions.HTTP_IDLE_TIMEOUT));
            } catch (IOException e) {
                if (beans != null) {
                    beans.close();
                }
                throw e;
            }
            SERVERS.put(engine, server);
            InetSocketAddress a = server.address();
            LOG.info("stats endpoint of {} on http://{}:{}/", directory, a.getHostString(), a.getPort());
        }
        EngineMBeans jmxBeans = beans;
        StatsHttpServer httpServer = server;
        return () -> {
            if (httpServer != null) {
                SERVERS.remove(engine);
                httpServer.close();
            }
            if (jmxBeans != null) {
                jmxBeans.close();
            }
        };
    }
}
