package dev.breakwater.bench.lsm;

/**
 * JVM arguments every forked JMH run of this package gets through
 * {@code @Fork(jvmArgsAppend = ...)}: the Chronicle-Bytes module openings of {@code bin/jvm-options}
 * (written in the single-argument {@code --opt=value} form, because JMH passes each array element
 * as one argument), plus a fixed heap and direct-memory limit so runs are comparable. Off-heap
 * arenas are direct byte buffers, so {@code MaxDirectMemorySize} bounds the write-memory pool and
 * the buffer cache together.
 */
final class BenchJvm {

    static final String EXPORTS_REF = "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED";
    static final String EXPORTS_NIO_CH = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";
    static final String OPENS_NIO = "--add-opens=java.base/java.nio=ALL-UNNAMED";
    static final String OPENS_LANG = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    static final String OPENS_MISC = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED";
    static final String EXPORTS_MISC = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    static final String OPENS_REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    static final String OPENS_IO = "--add-opens=java.base/java.io=ALL-UNNAMED";
    static final String OPENS_UTIL = "--add-opens=java.base/java.util=ALL-UNNAMED";
    static final String HEAP_MIN = "-Xms2g";
    static final String HEAP_MAX = "-Xmx2g";
    static final String DIRECT_MAX = "-XX:MaxDirectMemorySize=8g";

    private BenchJvm() {
    }
}
