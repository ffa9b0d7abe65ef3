package dev.breakwater.bench.buffercache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Fork;

/**
 * Runs each buffer-cache benchmark body a few times without JMH (setup, calls, tear-down with its
 * hit/miss checks), so a change that breaks a benchmark fails the build instead of the next run.
 * Measures nothing; uses small files so it takes well under a second.
 */
class BufferCacheBenchmarksSmokeTest {

    @Test
    void pinUnpinRunsOnTheHitPath() throws Exception {
        PinUnpinBenchmark bench = new PinUnpinBenchmark();
        bench.pages = 64;
        bench.setUp();
        try {
            PinUnpinBenchmark.Cursor first = new PinUnpinBenchmark.Cursor();
            PinUnpinBenchmark.Cursor second = new PinUnpinBenchmark.Cursor();
            first.start(bench, 0, 2);
            second.start(bench, 1, 2);
            assertEquals(32, second.next);
            for (int i = 0; i < 200; i++) {
                assertNotEquals(0L, bench.pinUnpin(first));
                assertNotEquals(0L, bench.pinUnpinThroughput(second));
            }
            assertEquals(200 % 64, first.next);
        } finally {
            bench.tearDown(); // throws if any of the pins above missed
        }
    }

    @Test
    void missPathMissesOnEveryPin() throws Exception {
        for (boolean direct : new boolean[] {false, true}) {
            for (String order : new String[] {"sequential", "random"}) {
                MissPathBenchmark bench = new MissPathBenchmark();
                bench.direct = direct;
                bench.order = order;
                bench.fileMiB = 8;
                bench.cacheMiB = 1;
                bench.setUp();
                try {
                    MissPathBenchmark.Cursor cursor = new MissPathBenchmark.Cursor();
                    cursor.start(bench, 0, 1);
                    int pins = bench.visit.length + 100; // wraps around the order once
                    for (int i = 0; i < pins; i++) {
                        assertNotEquals(0L, bench.missPinUnpin(cursor));
                    }
                    assertEquals(pins, bench.cache.snapshot().totalMisses());
                } finally {
                    bench.tearDown(); // throws if any pin hit
                }
            }
        }
    }

    @Test
    void randomOrderIsAPermutation() {
        int[] v = MissPathBenchmark.visitOrder("random", 1000);
        int[] sorted = v.clone();
        Arrays.sort(sorted);
        int[] identity = MissPathBenchmark.visitOrder("sequential", 1000);
        assertArrayEquals(identity, sorted);
        assertNotEquals(Arrays.toString(identity), Arrays.toString(v));
    }

    /** The forks must get exactly the options of bin/jvm-options, or Chronicle warns at start-up. */
    @Test
    void forkOptionsMatchBinJvmOptions() throws Exception {
        String[] expected = Files.readString(Path.of("..", "bin", "jvm-options")).trim().split("\\s+");
        for (Class<?> c : new Class<?>[] {PinUnpinBenchmark.class, MissPathBenchmark.class}) {
            assertArrayEquals(expected, c.getAnnotation(Fork.class).jvmArgsAppend(), c.getSimpleName());
        }
    }
}
