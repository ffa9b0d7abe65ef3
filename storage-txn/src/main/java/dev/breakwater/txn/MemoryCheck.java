package dev.breakwater.txn;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.OperatingSystemMXBean;
import dev.breakwater.common.config.ConfigOptions;
import dev.breakwater.common.config.StorageConfig;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * Checks an engine's memory settings against the machine and the JVM before anything is allocated
 * (docs/configuration.md, "Checked at open"). The buffer cache and the write-memory pool live in
 * direct {@link java.nio.ByteBuffer}s (Chronicle-Bytes over direct buffers), which count against the
 * JVM's direct-memory limit ({@code -XX:MaxDirectMemorySize}, by default the maximum heap) and,
 * of course, the machine's physical memory. Without this check an absurd {@code total-memory} ran
 * for tens of seconds allocating buffer-cache chunks and then failed with an
 * {@link OutOfMemoryError}; a small limit failed with no hint of which setting to change.
 *
 * <p>The direct-memory check counts what other direct buffers use now, but not write memory other
 * engines in the same JVM may still reserve lazily: give the JVM room for every engine it opens.
 *
 * <p>Thread safety: stateless.
 */
final class MemoryCheck {

    private MemoryCheck() {
    }

    /** @throws StorageException naming {@code total-memory}, the limit it exceeds and what to change */
    static void check(StorageConfig config) {
        long total = config.get(ConfigOptions.TOTAL_MEMORY);
        check(total, physicalMemory(), maxDirectMemory(), directMemoryInUse());
    }

    /** The check itself, on given numbers (a value {@code <= 0} means unknown and is not checked). */
    static void check(long totalMemory, long physical, long maxDirect, long directInUse) {
        String option = ConfigOptions.TOTAL_MEMORY.name();
        if (physical > 0 && totalMemory > physical) {
            throw new StorageException(option + " is " + show(totalMemory) + " but this machine has " + show(physical)
                    + " of physical memory; lower " + option + " (and " + ConfigOptions.WRITE_MEMORY.name() + ") to fit, "
                    + "leaving room for the heap and the operating system");
        }
        if (maxDirect > 0 && totalMemory > maxDirect - directInUse) {
            throw new StorageException(option + " is " + show(totalMemory) + " but this JVM may allocate only "
                    + show(Math.max(0, maxDirect - directInUse)) + " more direct (off-heap) memory (limit " + show(maxDirect)
                    + ", " + show(directInUse) + " in use); the buffer cache and write memory are direct buffers. Lower " + option
                    + ", or raise the JVM's limit with -XX:MaxDirectMemorySize (it defaults to the maximum heap, -Xmx)");
        }
    }

    static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    /** The JVM's direct-memory limit: {@code -XX:MaxDirectMemorySize}, or the maximum heap when it is unset (0). */
    static long maxDirectMemory() {
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long configured = hotspot == null ? 0 : Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
            return configured > 0 ? configured : Runtime.getRuntime().maxMemory();
        } catch (RuntimeException e) {
            return Runtime.getRuntime().maxMemory(); // not HotSpot: its default
        }
    }

    static long directMemoryInUse() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }

    private static String show(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format("%.1f GiB (%d bytes)", bytes / (double) (1L << 30), bytes);
        }
        return String.format("%.1f MiB (%d bytes)", bytes / (double) (1L << 20), bytes);
    }
}
