package dev.breakwater.ops.jmx;

import dev.breakwater.ops.StatsCache;
import dev.breakwater.txn.EngineClosedException;
import dev.breakwater.txn.EngineLayout;
import dev.breakwater.txn.StorageEngine;
import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers an engine's MBeans ({@link BreakwaterMXBeans}) in the platform MBean server at open and
 * unregisters every one of them at close. The engine, buffer cache, write memory, log and tuner
 * MBeans live as long as the engine; dataset and tree MBeans follow the datasets: a background
 * thread ({@code breakwater-jmx}, a daemon) compares them with {@link StorageEngine#layout()} every
 * {@link #SYNC_PERIOD_MILLIS} ms and registers or unregisters the difference. {@link #sync()} does the
 * same on demand.
 *
 * <p>Engines are told apart by their directory in the object names ({@code name} or {@code engine}
 * key). Two engines over one path on different file systems (in-memory tests) get {@code "<dir>#2"}.
 *
 * <p>Invariant: {@link #registered} is exactly the set of names this instance has registered and
 * not yet unregistered. Thread safety: {@link #sync()} and {@link #close()} synchronize on this.
 */
public final class EngineMBeans implements Closeable {

    /** Datasets change rarely and JMX consoles refresh every few seconds; a second keeps them in step cheaply. */
    public static final long SYNC_PERIOD_MILLIS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(EngineMBeans.class);
    private static final String DOMAIN = "dev.breakwater";

    private final StorageEngine engine;
    private final StatsCache stats;
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String quotedEngine;
    // @GuardedBy("this")
    private final Set<ObjectName> registered = new HashSet<>();
    private final ScheduledExecutorService syncer;
    // @GuardedBy("this")
    private boolean closed;

    private EngineMBeans(StorageEngine engine, StatsCache stats, String quotedEngine) {
        this.engine = engine;
        this.stats = stats;
        this.quotedEngine = quotedEngine;
        this.syncer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "breakwater-jmx");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Registers the MBeans of {@code engine}, whose directory is {@code directory}.
     *
     * @throws JMException if the platform MBean server refuses them
     */
    public static EngineMBeans register(StorageEngine engine, StatsCache stats, String directory) throws JMException {
        for (int n = 1; ; n++) {
            String id = ObjectName.quote(n == 1 ? directory : directory + "#" + n);
            EngineMBeans beans = new EngineMBeans(engine, stats, id);
            try {
                beans.registerFixed(directory);
            } catch (InstanceAlreadyExistsException taken) {
                beans.close();
                continue;
            }
            try {
                beans.sync();
            } catch (JMException | RuntimeException e) {
                beans.close();
                throw e;
            }
            beans.syncer.scheduleWithFixedDelay(beans::syncQuietly, SYNC_PERIOD_MILLIS, SYNC_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            return beans;
        }
    }

    /** The object name of the engine MBean. */
    public ObjectName engineName() {
        return name("Engine", null, null);
    }

    /** Every name registered now, for tests and tools. */
    public synchronized Set<ObjectName> names() {
        return Set.copyOf(registered);
    }

    private void registerFixed(String directory) throws JMException {
        // The engine MBean goes first: if its name is taken, nothing else of ours was registered.
        add(engineName(), new MBeanViews.Engine(engine, stats, directory), BreakwaterMXBeans.EngineMXBean.class);
        add(name("BufferCache", null, null), new MBeanViews.BufferCache(stats), BreakwaterMXBeans.BufferCacheMXBean.class);
        add(name("WriteMemory", null, null), new MBeanViews.WriteMemory(stats), BreakwaterMXBeans.WriteMemoryMXBean.class);
        add(name("Log", null, null), new MBeanViews.Log(stats), BreakwaterMXBeans.LogMXBean.class);
        add(name("Tuner", null, null), new MBeanViews.Tuner(stats, engine.config()), BreakwaterMXBeans.TunerMXBean.class);
    }

    /** Registers MBeans of new datasets and trees and unregisters those of dropped ones. */
    public synchronized void sync() throws JMException {
        if (closed) {
            return;
        }
        EngineLayout layout;
        try {
            layout = engine.layout();
        } catch (EngineClosedException e) {
            return;
        }
        Map<ObjectName, Object> wanted = new LinkedHashMap<>();
        Map<ObjectName, Class<?>> types = new HashMap<>();
        for (EngineLayout.DatasetLayout ds : layout.datasets()) {
            List<String> trees = ds.indexes().stream().map(ix -> ix.tree().name()).toList();
            ObjectName dn = name("Dataset", null, ds.name());
            wanted.put(dn, new MBeanViews.Dataset(stats, ds.name(), () -> trees));
            types.put(dn, BreakwaterMXBeans.DatasetMXBean.class);
            for (String tree : trees) {
                ObjectName tn = name("Tree", ds.name(), tree);
                wanted.put(tn, new MBeanViews.Tree(stats, tree));
                types.put(tn, BreakwaterMXBeans.TreeMXBean.class);
            }
        }
        for (ObjectName n : Set.copyOf(registered)) {
            String type = n.getKeyProperty("type");
            if ((type.equals("Dataset") || type.equals("Tree")) && !wanted.containsKey(n)) {
                remove(n);
            }
        }
        for (Map.Entry<ObjectName, Object> e : wanted.entrySet()) {
            if (!registered.contains(e.getKey())) {
                add(e.getKey(), e.getValue(), types.get(e.getKey()));
            }
        }
    }

    /** Stops the sync thread and unregisters every MBean of this engine. Idempotent. */
    @Override
    public void close() {
        syncer.shutdownNow();
        synchronized (this) {
            closed = true;
            for (ObjectName n : Set.copyOf(registered)) {
                remove(n);
            }
        }
        try {
            syncer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void syncQuietly() {
        try {
            sync();
        } catch (JMException | RuntimeException e) {
            LOG.warn("cannot update the JMX MBeans of datasets of engine {}", quotedEngine, e);
        }
    }

    private ObjectName name(String type, String dataset, String member) {
        StringBuilder sb = new StringBuilder(DOMAIN).append(":type=").append(type);
        if (member == null) {
            sb.append(",name=").append(quotedEngine);
        } else {
            sb.append(",engine=").append(quotedEngine);
            if (dataset != null) {
                sb.append(",dataset=").append(dataset);
            }
            sb.append(",name=").append(member);
        }
        try {
            return new ObjectName(sb.toString());
        } catch (MalformedObjectNameException e) {
            // Dataset and index names are [A-Za-z][A-Za-z0-9_]*, the directory is quoted: never malformed.
            throw new IllegalStateException("bad JMX object name " + sb, e);
        }
    }

    private synchronized void add(ObjectName name, Object impl, Class<?> type) throws JMException {
        server.registerMBean(mxBean(impl, type), name);
        registered.add(name);
    }

    private static <T> StandardMBean mxBean(Object impl, Class<T> type) {
        return new StandardMBean(type.cast(impl), type, true);
    }

    private void remove(ObjectName name) {
        try {
            server.unregisterMBean(name);
        } catch (JMException e) {
            LOG.debug("MBean {} was already unregistered", name);
        }
        registered.remove(name);
    }
}
