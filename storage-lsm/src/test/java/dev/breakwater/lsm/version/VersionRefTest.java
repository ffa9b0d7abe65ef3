package dev.breakwater.lsm.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Reference counting of {@link Version}: {@link Version#tryRef()} never resurrects a released version. */
class VersionRefTest {

    @Test
    void tryRefAddsAReferenceWhileLive() {
        Version v = Version.empty();
        AtomicInteger releases = new AtomicInteger();
        v.onRelease(x -> releases.incrementAndGet());
        assertTrue(v.tryRef());
        v.unref();
        assertEquals(0, releases.get(), "one reference is still held");
        v.unref();
        assertEquals(1, releases.get());
    }

    @Test
    void tryRefFailsOnceReleasedAndLeavesTheCountAlone() {
        Version v = Version.empty();
        AtomicInteger releases = new AtomicInteger();
        v.onRelease(x -> releases.incrementAndGet());
        v.unref();
        assertFalse(v.tryRef());
        assertFalse(v.tryRef());
        assertThrows(IllegalStateException.class, v::ref);
        assertEquals(1, releases.get(), "the release callback ran exactly once");
    }
}
